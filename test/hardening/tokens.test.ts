// Tokens on a run with every resource: another surface's token cannot reach a write or exec tool
// or a harness route, and a rebinding Host is refused on the routes as on /mcp.
import { describe, expect, test } from "bun:test";
import type { RunConfig } from "../../src/config/schema.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const WORKER = ["sh", "-c", "echo done"];
// The run config is validated again (defaults filled) by startTestRun.
const RESOURCES = { parser: {}, languageServers: {}, debugAdapters: {}, kernels: {}, questions: { space: "s" }, vibe: { fast: { command: WORKER } } } as RunConfig["resources"];
/** A harmless, valid call of each write and exec tool: were it let through, it would run. */
const WRITE_AND_EXEC_CALLS: [string, Record<string, unknown>][] = [
  ["ast_edit", { pattern: "$X = 1", rewrite: "$X = 2", language: "python" }],
  ["resolve", { edit_id: "edit_1", action: "accept" }],
  ["lsp_rename", { file: "a.py", line: 1, symbol: "x", new_name: "y" }],
  ["debug", { operation: "adapters" }],
  ["eval", { code: "1", description: "a cell that must never run" }],
];
const HARNESS_ROUTES: [string, string, unknown][] = [
  ["POST", "/harness/after-write", { paths: ["a.py"] }],
  ["POST", "/harness/permission", { question: "may I?" }],
  ["GET", "/harness/vibe", undefined],
  ["POST", "/harness/vibe", { mode: "off" }],
];

describe("another surface's token", () => {
  test("cannot see or call any write or exec tool: each answers exactly as an unknown tool", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.py": "x = 1\n", "pyproject.toml": "" });
    await using t = await startTestRun(dir.path, { conversation: "c", resources: RESOURCES });
    for (const surface of ["plan", "explore"]) {
      const client = await t.client(surface);
      const listed = (await client.listTools()).tools.map((tool) => tool.name);
      for (const [name, args] of WRITE_AND_EXEC_CALLS) {
        expect(listed).not.toContain(name);
        await expect(client.callTool({ name, arguments: args })).rejects.toThrow(`Unknown tool: ${name}.`);
      }
    }
    expect(await Bun.file(`${dir.path}/a.py`).text()).toBe("x = 1\n");
  });

  test("cannot use a harness route; nor can a missing or wrong token; the vibe mode stays on", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, { conversation: "c", resources: RESOURCES });
    const tokens: [string, string | undefined][] = [
      ["plan", t.run.surfaces.plan],
      ["explore", t.run.surfaces.explore],
      ["missing", undefined],
      ["wrong", `${t.run.surfaces.default}x`],
    ];
    for (const [method, path, body] of HARNESS_ROUTES) {
      for (const [label, token] of tokens) {
        const response = await t.fetch(path, {
          method,
          headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        expect(`${method} ${path} with a ${label} token: ${response.status}`).toBe(`${method} ${path} with a ${label} token: 401`);
      }
    }
    const mode = await t.fetch("/harness/vibe", { headers: { Authorization: `Bearer ${t.run.surfaces.default}` } });
    expect(await mode.json()).toMatchObject({ mode: "on" });
  });

  test("a DNS-rebinding Host is refused on the harness routes too, even with the right token", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, { conversation: "c", resources: RESOURCES });
    const port = new URL(t.run.url).port;
    const response = await fetch(`http://127.0.0.1:${port}/harness/vibe`, {
      headers: { Host: `evil.example:${port}`, Authorization: `Bearer ${t.run.surfaces.default}` },
    });
    expect(response.status).toBe(403);
  });
});
