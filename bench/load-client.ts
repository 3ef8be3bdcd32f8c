// One load-generating process of the load bench: runs its share of the sessions against a running
// sidecar until the deadline and prints its tally as one JSON line. Spreading the sessions over
// several processes keeps one client's event loop from queueing every session's answers (as
// separate agents would be separate processes).
// Usage (by bench/load.ts): bun bench/load-client.ts '<JSON LoadClientJob>'
import { connectClient } from "../build/spawn-sidecar.ts";
import { loadKinds, type Kind, type Tally } from "./load-kinds.ts";

export interface LoadClientJob {
  url: string;
  tokens: Record<string, string>;
  workdir: string;
  /** Global session numbers this process runs; even ones use the default surface, odd ones plan. */
  sessions: number[];
  kinds: string[];
  /** When measuring begins (ms since epoch): sessions connect and warm up before it, unrecorded. */
  start: number;
  deadline: number;
  thinkMs: number;
}

const job = JSON.parse(process.argv[2] ?? "") as LoadClientJob;
const kinds = loadKinds(job.workdir).filter((k) => job.kinds.includes(k.name));
const tally: Tally = {
  latencies: Object.fromEntries(kinds.map((k) => [k.name, []])),
  errors: Object.fromEntries(kinds.map((k) => [k.name, []])),
  calls: 0,
  answered: { python: 0, javascript: 0 },
  clientLagMs: [],
  listUnstalledMs: [],
};
/** Stretches (performance.now() ms) when this process's event loop stalled past STALL_MS. */
const stalls: Array<[number, number]> = [];
/** Each tools/list call's window and latency, matched against the stalls at the end. */
const listCalls: Array<{ start: number; end: number }> = [];
const STALL_MS = 5;

/** Samples this process's event-loop lag during the measured window. */
function sampleLag(): () => void {
  let expected = performance.now() + LAG_TICK_MS;
  const timer = setInterval(() => {
    const now = performance.now();
    const lag = Math.max(0, now - expected);
    if (Date.now() >= job.start) tally.clientLagMs.push(lag);
    if (lag > STALL_MS) stalls.push([now - lag - LAG_TICK_MS, now]);
    expected = now + LAG_TICK_MS;
  }, LAG_TICK_MS);
  return () => clearInterval(timer);
}
const LAG_TICK_MS = 10;

async function session(index: number): Promise<void> {
  const surface = index % 2 === 0 ? "default" : "plan";
  const mine = kinds.flatMap((k) => (k.surfaces.includes(surface) ? Array<Kind>(k.weight).fill(k) : []));
  const client = await connectClient(job.url, job.tokens[surface]!, "sidecar-load");
  // Process start, connecting and the client's first JIT passes are the client's cost, not the load's.
  await mine.find((k) => k.name === "tools/list")!.call(client, index + 1, 0);
  await Bun.sleep(Math.max(0, job.start - Date.now()));
  let sequence = 0;
  try {
    while (Date.now() < job.deadline) {
      const kind = mine[Math.floor(Math.random() * mine.length)]!;
      sequence++;
      const started = performance.now();
      try {
        const result = (await kind.call(client, index + 1, sequence)) as { isError?: boolean; content?: unknown };
        if (result.isError) throw new Error(JSON.stringify(result.content).slice(0, 300));
        const ended = performance.now();
        tally.latencies[kind.name]!.push(ended - started);
        if (kind.name === "tools/list") listCalls.push({ start: started, end: ended });
        if (kind.name === "eval python") tally.answered.python++;
        if (kind.name === "eval javascript") tally.answered.javascript++;
      } catch (error) {
        tally.errors[kind.name]!.push((error as Error).message.slice(0, 300));
      }
      tally.calls++;
      if (job.thinkMs) await Bun.sleep(job.thinkMs * (0.5 + Math.random()));
    }
  } finally {
    await client.close();
  }
}

const stopLag = sampleLag();
await Promise.all(job.sessions.map(session));
stopLag();
tally.listUnstalledMs = listCalls.filter((c) => !stalls.some(([from, to]) => from < c.end && to > c.start)).map((c) => c.end - c.start);
console.log(JSON.stringify(tally));
