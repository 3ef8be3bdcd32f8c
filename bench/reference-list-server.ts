// The load bench's reference for tools/list: a trivial MCP server that does nothing but answer
// initialize and tools/list with a fixed list (the sidecar's own, from a file), in a process of its
// own beside the load. The same probe against it, in the same round, measures the floor that the
// machine, its scheduler and the probe's SDK client set: what any server would be seen to take.
// Usage: bun bench/reference-list-server.ts TOOLS_LIST_JSON_FILE; prints its URL as one line.
import { readFileSync } from "node:fs";

const [listFile] = process.argv.slice(2);
if (!listFile) throw new Error("usage: bun bench/reference-list-server.ts TOOLS_LIST_JSON_FILE");
const listJson = readFileSync(listFile, "utf8");
const SESSION_ID = "reference";

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  idleTimeout: 0,
  async fetch(request) {
    if (request.method === "DELETE") return new Response(null, { status: 200 });
    // No server-message stream: the MCP transport allows a 405 here, as the sidecar's front does past its cap.
    if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST, DELETE" } });
    const message = (await request.json()) as { id?: number | string; method?: string };
    if (message.id === undefined) return new Response(null, { status: 202 }); // a notification
    const id = JSON.stringify(message.id);
    const result =
      message.method === "initialize"
        ? JSON.stringify({ protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "reference", version: "1.0.0" } })
        : message.method === "tools/list"
          ? listJson
          : undefined;
    const body = result ? `{"jsonrpc":"2.0","id":${id},"result":${result}}` : `{"jsonrpc":"2.0","id":${id},"error":{"code":-32601,"message":"only initialize and tools/list"}}`;
    return new Response(body, { headers: { "content-type": "application/json", "mcp-session-id": SESSION_ID } });
  },
});
console.log(`http://127.0.0.1:${server.port}/mcp`);
