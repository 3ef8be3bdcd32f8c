// A tools/list probe in its own process: one MCP session calling tools/list every INTERVAL_MS for
// SECONDS against a running sidecar, printing its latencies (ms) as one JSON line. The load bench
// runs it beside its 50 sessions, whose own latencies include their shared client's event-loop
// queue (50 SDK clients in one process); the probe's include only the wire and the sidecar.
// Each tick asks twice, in turn: through the official SDK client (`sdk`: what an agent's client
// sees, its own validation of the ~40 KB list included, 2 ms of the 2.5 ms median at rest), and
// as raw JSON-RPC over the same session (`raw`: the server's answer and the wire alone).
// Usage: bun bench/list-probe.ts URL TOKEN SECONDS [INTERVAL_MS=50] [START_EPOCH_MS]
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { connectClient } from "../build/spawn-sidecar.ts";

const [url, token, seconds, interval, startAt] = process.argv.slice(2);
if (!url || !token || !seconds) throw new Error("usage: bun bench/list-probe.ts URL TOKEN SECONDS [INTERVAL_MS=50]");
const INTERVAL_MS = Number(interval ?? 50);
const client = await connectClient(url, token, "sidecar-list-probe");
const transport = client.transport as StreamableHTTPClientTransport;
const headers = {
  Authorization: `Bearer ${token}`,
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "Mcp-Session-Id": transport.sessionId ?? "",
  "Mcp-Protocol-Version": transport.protocolVersion ?? "2025-06-18",
};
let nextId = 1;
async function rawList(): Promise<void> {
  const response = await fetch(url!, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "tools/list" }) });
  const text = await response.text();
  if (!response.ok || !text.includes('"tools"')) throw new Error(`raw tools/list answered ${response.status}: ${text.slice(0, 200)}`);
}
async function timed(ask: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await ask();
  return performance.now() - started;
}

await client.request({ method: "tools/list" }, ListToolsResultSchema); // warm, unrecorded
await rawList();
await Bun.sleep(Math.max(0, Number(startAt ?? 0) - Date.now()));
const latencies = { sdk: [] as number[], raw: [] as number[] };
const deadline = Date.now() + Number(seconds) * 1000;
for (let tick = 0; Date.now() < deadline; tick++) {
  const started = performance.now();
  // In turn, so that neither always comes right after the other's wake-up.
  if (tick % 2 === 0) latencies.sdk.push(await timed(() => client.request({ method: "tools/list" }, ListToolsResultSchema)));
  else latencies.raw.push(await timed(rawList));
  await Bun.sleep(Math.max(0, INTERVAL_MS - (performance.now() - started)));
}
await client.close();
console.log(JSON.stringify(latencies));
