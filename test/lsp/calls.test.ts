// calls: a function's call hierarchy from the real servers, one row per call site, both directions.
import { describe, expect, test } from "bun:test";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call, LSP_CONFIG, PY_PROJECT, requireBinary, TS_PROJECT } from "./fixtures.ts";

type Row = { path: string; line: number; column: number; name: string; kind: string };

describe("calls", () => {
  test("TypeScript: incoming calls of totalArea and outgoing calls of the script's top level", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write({ ...TS_PROJECT, "src/report.ts": 'import { Circle, totalArea } from "./shapes.js";\n\nexport function report(): string {\n  return `${totalArea([new Circle(1)])}`;\n}\n' });
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const client = await t.client();
    const incoming = await call(client, "lsp", { action: "calls", file: "src/shapes.ts", line: 14, symbol: "totalArea", direction: "incoming" });
    expect(incoming.isError).toBe(false);
    const rows = incoming.data.results as Row[];
    expect(rows.map((r) => `${r.path}:${r.line}:${r.name}`)).toEqual(["src/main.ts:5:main.ts", "src/report.ts:4:report"]);
    expect(incoming.text).toContain("src/report.ts:4:");
    expect(incoming.text).toContain("[function report]");
    const outgoing = await call(client, "lsp", { action: "calls", file: "src/report.ts", line: 3, symbol: "report", direction: "outgoing" });
    expect((outgoing.data.results as Row[]).map((r) => `${r.line}:${r.name}`)).toContain("4:totalArea");
    const missing = await call(client, "lsp", { action: "calls", file: "src/report.ts", line: 3, symbol: "report" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('calls needs direction: "incoming"');
  }, 240_000);

  test("Python: incoming calls of a function across modules", async () => {
    requireBinary("pyright-langserver", "npm i -D pyright");
    await using dir = await tempDir();
    await dir.write(PY_PROJECT);
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const r = await call(await t.client(), "lsp", { action: "calls", file: "pkg/geometry.py", line: 12, symbol: "double_area", direction: "incoming" });
    expect(r.isError).toBe(false);
    expect((r.data.results as Row[]).map((row) => `${row.path}:${row.line}`)).toContain("pkg/app.py:4");
  }, 240_000);
});
