// A tools/list probe in its own process: one MCP session calling tools/list every INTERVAL_MS for
// SECONDS against a running sidecar, printing its latencies (ms) as one JSON line. The load bench
// runs it beside its 50 sessions, whose own latencies include their shared client's event-loop
// queue (50 SDK clients in one process); the probe's include only the wire and the sidecar.
// Usage: bun bench/list-probe.ts URL TOKEN SECONDS [INTERVAL_MS=50] [START_EPOCH_MS]
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { connectClient } from "../build/spawn-sidecar.ts";

const [url, token, seconds, interval, startAt] = process.argv.slice(2);
if (!url || !token || !seconds) throw new Error("usage: bun bench/list-probe.ts URL TOKEN SECONDS [INTERVAL_MS=50]");
const INTERVAL_MS = Number(interval ?? 50);
const client = await connectClient(url, token, "sidecar-list-probe");
await client.request({ method: "tools/list" }, ListToolsResultSchema); // warm, unrecorded
await Bun.sleep(Math.max(0, Number(startAt ?? 0) - Date.now()));
const latencies: number[] = [];
const deadline = Date.now() + Number(seconds) * 1000;
while (Date.now() < deadline) {
  const started = performance.now();
  await client.request({ method: "tools/list" }, ListToolsResultSchema);
  latencies.push(performance.now() - started);
  await Bun.sleep(Math.max(0, INTERVAL_MS - (performance.now() - started)));
}
await client.close();
console.log(JSON.stringify(latencies));
