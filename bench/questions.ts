// What ask_user costs besides the human: median round trip of an instantly answered question, per port,
// against a plain MCP call. Run: `npx bun bench/questions.ts` (about 10 s).
import { startQuestionPort } from "../test/helpers/question-port.ts";
import { echoTool } from "../test/helpers/probe-tools.ts";
import { startTestRun } from "../test/helpers/sidecar.ts";
import { tempDir } from "../test/helpers/temp-dir.ts";
import { median } from "./stats.ts";

const ROUNDS = 50;
const WARM_UP = 10;
const question = { question: "Which?", options: [{ label: "A" }, { label: "B" }] };


async function time(round: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < WARM_UP; i++) await round();
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await round();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

await using dir = await tempDir();

// 1. A plain MCP tool call: the floor.
const baseline = await (async () => {
  await using run = await startTestRun(dir.path, {}, { extraTools: [echoTool] });
  const client = await run.client();
  return await time(() => client.callTool({ name: "test_echo", arguments: { text: "x" } }));
})();

// 2. A harness port answering in its POST reply (an auto-approver).
const instant = await (async () => {
  await using port = await startQuestionPort();
  port.onPost = () => ({ outcome: "answered", option_ids: ["o1"] });
  await using run = await startTestRun(dir.path, { resources: { questions: { port: port.url, space: "s" } } });
  const client = await run.client();
  return await time(() => client.callTool({ name: "ask_user", arguments: question }));
})();

// 3. A harness port answering "pending", then the long poll answered as soon as the card arrived.
const polled = await (async () => {
  await using port = await startQuestionPort();
  await using run = await startTestRun(dir.path, { resources: { questions: { port: port.url, space: "s" } } });
  const client = await run.client();
  return await time(async () => {
    const call = client.callTool({ name: "ask_user", arguments: question });
    const card = await port.card();
    port.settle(card.id, { outcome: "answered", option_ids: ["o1"] });
    return call;
  });
})();

// 4. The operator page: the card arrives on the event stream, the answer is posted back.
const page = await (async () => {
  await using run = await startTestRun(dir.path, { resources: { questions: { space: "s" } } });
  const client = await run.client();
  const origin = run.run.url.replace(/\/mcp$/, "");
  const ticket = new URL(run.run.page!).hash.replace(/^#k=/, "");
  const traded = await run.fetch("/operator/session", {
    method: "POST",
    headers: { Origin: origin, "Content-Type": "application/json" },
    body: JSON.stringify({ ticket }),
  });
  const { secret } = (await traded.json()) as { secret: string };
  const stream = await run.fetch("/operator/events", { headers: { "Sidecar-Page-Secret": secret } });
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const nextCardId = async (): Promise<string> => {
    for (;;) {
      const found = /"pending":\[\{"id":"([^"]+)"/.exec(buffer);
      if (found) {
        buffer = "";
        return found[1]!;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("stream ended");
      buffer += value;
    }
  };
  const median = await time(async () => {
    const call = client.callTool({ name: "ask_user", arguments: question });
    const id = await nextCardId();
    await run.fetch(`/operator/cards/${id}`, {
      method: "POST",
      headers: { "Sidecar-Page-Secret": secret, Origin: origin, "Content-Type": "application/json" },
      body: JSON.stringify({ action: "answer", option_ids: ["o1"] }),
    });
    return call;
  });
  await reader.cancel();
  return median;
})();

const row = (name: string, ms: number) =>
  console.log(`${name.padEnd(44)} ${ms.toFixed(2).padStart(7)} ms  ${(ms / baseline).toFixed(1).padStart(5)}× a plain call`);
console.log(`median of ${ROUNDS} rounds`);
row("plain MCP call (test_echo)", baseline);
row("ask_user, harness port answers in POST", instant);
row("ask_user, harness port via long poll", polled);
row("ask_user, operator page (SSE + POST)", page);
