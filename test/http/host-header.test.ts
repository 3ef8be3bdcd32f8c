// A malformed Host header, sent over a real socket to the real listener: 400 with a sentence, on
// every route, with or without --allow-remote; never a 500, never a page showing paths or source.
import { describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { isWellFormedHost } from "../../src/http/guard.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const MALFORMED = ["[", "a b", "localhost:abc", "[::1]:abc", "localhost:99999", "[::1]x", "a/b", "[::1"];
// The operator page serves on `/` when questions are answered by the sidecar itself.
const WITH_PAGE = { resources: { questions: { space: "local" } } };

/** One raw HTTP/1.1 request; fetch would not send a Host header it cannot parse. */
function rawRequest(port: number, head: string, body = ""): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(`${head}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`));
    let text = "";
    socket.on("data", (chunk) => (text += chunk.toString()));
    socket.on("error", reject);
    socket.on("close", () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
  });
}

describe("a malformed Host header", () => {
  test.each([false, true])("gets 400 and a sentence on /mcp and on the page (allowRemote %p)", async (allowRemote) => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, WITH_PAGE, { allowRemote });
    const token = t.run.surfaces.default!;
    const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    for (const host of MALFORMED) {
      const answers = [
        await rawRequest(t.run.port, `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream`, initialize),
        await rawRequest(t.run.port, `GET / HTTP/1.1\r\nHost: ${host}`),
        await rawRequest(t.run.port, `GET /mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream`),
      ];
      for (const answer of answers) {
        expect([host, answer.status]).toEqual([host, 400]);
        const body = JSON.parse(answer.text.slice(answer.text.indexOf("\r\n\r\n") + 4));
        expect(body.error.message).toBe(`Bad Request: the Host header ${JSON.stringify(host)} is not a host name or address with an optional port, such as 127.0.0.1:8080.`);
        expect(answer.text).not.toContain(process.cwd());
      }
    }
    // The listener still serves a well-formed request afterwards.
    const ping = await (await t.client()).ping();
    expect(ping).toBeDefined();
  });

  test("well-formed hosts pass the check: names, IPv4, bracketed IPv6, with and without a port", () => {
    for (const host of ["localhost", "localhost:1", "127.0.0.1:65535", "[::1]", "[::1]:8080", "app.localhost:3000", "example.com"]) expect([host, isWellFormedHost(host)]).toEqual([host, true]);
    for (const host of [...MALFORMED, "localhost:", "127.0.0.1:1:2", ":80", "a\tb"]) expect([host, isWellFormedHost(host)]).toEqual([host, false]);
  });
});
