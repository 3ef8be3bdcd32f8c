// A harness question port that hangs: ask_user fails within the port's request bound instead of
// blocking, withdraws the card, and once the port answers again the next question goes through.
import { describe, expect, test } from "bun:test";
import { PORT_REQUEST_TIMEOUT_MS } from "../../src/questions/harness-port.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const question = { question: "Which database should the cache use?", options: [{ label: "Postgres" }, { label: "SQLite" }] };

describe("a question port that hangs", () => {
  test("fails the call with a sentence naming the bound, then works again once the port answers", async () => {
    await using dir = await tempDir();
    let hanging = true;
    const deletes: string[] = [];
    const held: Request[] = [];
    using port = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(request) {
        const path = new URL(request.url).pathname;
        if (request.method === "DELETE") {
          deletes.push(path);
          return Response.json({});
        }
        if (hanging) {
          held.push(request);
          return new Promise<Response>(() => {}); // accepts the connection, never answers
        }
        if (request.method === "POST") return Response.json({ outcome: "answered", option_ids: ["o2"] });
        return Response.json({ outcome: "pending" });
      },
    });
    await using run = await startTestRun(dir.path, { resources: { questions: { port: `http://127.0.0.1:${port.port}`, space: "s" } } });
    const client = await run.client();
    await client.listTools();
    const hung = await client.callTool({ name: "ask_user", arguments: question }, undefined, { timeout: PORT_REQUEST_TIMEOUT_MS * 6 });
    expect(hung.isError).toBe(true);
    const text = (hung.content as { text: string }[])[0]!.text;
    expect(text).toContain(`did not answer POST /questions within ${PORT_REQUEST_TIMEOUT_MS} ms`);
    expect(held).toHaveLength(1);
    // The card is withdrawn (without waiting on the hung port), so a late answer changes nothing.
    for (let i = 0; i < 200 && deletes.length === 0; i++) await Bun.sleep(50);
    expect(deletes).toHaveLength(1);

    hanging = false;
    const answered = await client.callTool({ name: "ask_user", arguments: question });
    expect(answered.isError).toBeFalsy();
    expect(JSON.stringify(answered.structuredContent)).toContain("SQLite");
  }, PORT_REQUEST_TIMEOUT_MS * 6);
});
