// `sidecar doctor`: what this checkout does not use is "not used here", the row that matters comes
// first, --config is honoured, --json is machine-readable, and a progress line runs while it probes.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DoctorRow } from "../../src/doctor/check.ts";
import { BUILTIN_SERVERS } from "../../src/lsp/catalog.ts";
import { buildReport, formatReport, type DoctorReport } from "../../src/doctor/report.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { runCli } from "./run-cli.ts";

const DOCTOR_TIMEOUT_MS = 120_000;

function rowsOf(stdout: string): DoctorReport["rows"] {
  return (JSON.parse(stdout) as DoctorReport).rows;
}

const find = (rows: DoctorReport["rows"], group: string, name: string) => rows.find((row) => row.group === group && row.name === name);

describe("doctor on a real checkout", () => {
  test("a Python project: other languages are not used here, Python's server and adapter are probed", async () => {
    await using dir = await tempDir();
    writeFileSync(join(dir.path, "pyproject.toml"), "[project]\nname = 'x'\n");
    const { code, stdout, stderr } = runCli(["doctor", "--json", "--workdir", dir.path], { timeoutMs: DOCTOR_TIMEOUT_MS });
    expect(code).toBe(0);
    const rows = rowsOf(stdout);
    for (const server of ["c", "dart", "go", "rust", "typescript"]) expect(find(rows, "language servers", server)?.status).toBe("unused");
    expect(find(rows, "language servers", "python")?.status).not.toBe("unused");
    expect(find(rows, "debug adapters", "dart")?.status).toBe("unused"); // neither a Dart project nor dart here
    // A project marker is no condition for an adapter (the program decides it, 85fbe3c): an installed
    // lldb or delve is usable here and says where its programs would run.
    for (const adapter of ["lldb", "delve"]) expect(find(rows, "debug adapters", adapter)).toMatchObject({ status: "ok", detail: expect.stringContaining("no project marker") });
    expect(find(rows, "debug adapters", "debugpy")?.status).not.toBe("unused");
    expect(rows.filter((row) => row.group === "grammars").every((row) => row.status === "ok")).toBe(true);
    // The progress line: named up front, then each group as it finishes.
    expect(stderr).toStartWith("sidecar doctor: probing grammars, language servers, debug adapters, kernels, workers…\n");
    for (const group of ["grammars", "language servers", "debug adapters", "kernels", "workers"]) expect(stderr).toMatch(new RegExp(`sidecar doctor: ${group} probed \\(\\d+\\.\\d s\\)`));
  }, DOCTOR_TIMEOUT_MS);

  // The marker stays required (pyright takes its settings and import roots from it); the row says the files are there and what to add.
  test("Python files but no root marker: not \"not used here\" but a warning naming a file and the markers to add; the cache rows name what each install brings", async () => {
    await using dir = await tempDir();
    await dir.write({ "scripts/tool.py": "print('hi')\n" });
    const { code, stdout } = runCli(["doctor", "--json", "--workdir", dir.path], { timeoutMs: DOCTOR_TIMEOUT_MS });
    expect(code).toBe(0);
    const markers = "pyproject.toml, pyrightconfig.json, setup.py, setup.cfg, requirements.txt";
    expect(find(rowsOf(stdout), "language servers", "python")).toMatchObject({
      status: "warn",
      detail: `scripts/tool.py (and any other .py .pyi files) not served: no root marker (${markers}) in its folder or above it. Add one of them (a pyproject.toml, say) in the folder the project starts from, then lsp reload`,
      hint: `add one of ${markers} at the top of the project`,
    });
    expect(find(rowsOf(stdout), "language servers", "go")?.status).toBe("unused");
    // The cache's rows say what each install brings: typescript@<server version> is not the TypeScript version.
    const typescript = BUILTIN_SERVERS.find((spec) => spec.id === "typescript")!.npm!.packages;
    const row = rowsOf(stdout).find((r) => r.group === "language server cache" && r.name.startsWith("typescript@"));
    expect(row?.detail).toEndWith(`(typescript: typescript-language-server ${typescript["typescript-language-server"]}, typescript ${typescript.typescript})`);
  }, DOCTOR_TIMEOUT_MS);

  test("--config is honoured: its server override is what is probed, and what it leaves out is not probed", async () => {
    await using dir = await tempDir();
    writeFileSync(join(dir.path, "pyproject.toml"), "[project]\nname = 'x'\n");
    const config = join(dir.path, "run.json");
    writeFileSync(config, JSON.stringify({ workdir: dir.path, resources: { languageServers: { servers: { python: { command: "/nonexistent/pyright-langserver" } } }, kernels: false, debugAdapters: false } }));
    const json = runCli(["doctor", "--json", "--config", config], { timeoutMs: DOCTOR_TIMEOUT_MS });
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as DoctorReport;
    expect(report.workdir).toBe(dir.path);
    expect(report.first?.name).toBe("python");
    expect(report.first?.detail).toContain("/nonexistent/pyright-langserver");
    expect(find(report.rows, "kernels", "kernels")).toMatchObject({ status: "unused", detail: `${config} has no resources.kernels, so this run has none of its tools` });
    expect(report.rows.filter((row) => row.group === "debug adapters").map((row) => row.status)).toEqual(["unused"]);

    // The table says it first: the line after the heading is the failure, with its hint.
    const table = runCli(["doctor", "--config", config], { timeoutMs: DOCTOR_TIMEOUT_MS });
    const lines = table.stdout.split("\n");
    expect(lines[0]).toBe(`sidecar doctor — ${dir.path}`);
    expect(lines[2]).toStartWith("FAIL: language servers: python: unavailable: binary not found: /nonexistent/pyright-langserver");
    expect(lines[3]).toStartWith("  hint: install it");
  }, DOCTOR_TIMEOUT_MS);

  test("a --config that is invalid is refused, never ignored", async () => {
    await using dir = await tempDir();
    const config = join(dir.path, "run.json");
    writeFileSync(config, JSON.stringify({ resources: { languageServer: {} } }));
    const { code, stdout, stderr } = runCli(["doctor", "--config", config]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("resources.languageServer: unknown key");
  });
});

describe("the report", () => {
  const row = (group: string, name: string, extra: Partial<DoctorRow> = {}): DoctorRow => ({ group, name, ok: true, detail: "fine", ...extra });

  test("the first failure in group order is the row that matters; optional and unused rows are not failures", () => {
    const report = buildReport("/w", [
      [row("grammars", "python"), row("grammars", "go")],
      [row("language servers", "dart", { ok: false, unused: true, detail: "no root marker" }), row("language servers", "python", { ok: false, detail: "binary not found", hint: "install it" })],
      [row("kernels", "python3"), row("kernels", "  pandas", { ok: false, optional: true, detail: "not importable" }), row("kernels", "javascript", { ok: false, detail: "no" })],
    ]);
    expect(report.first?.name).toBe("python");
    expect(report.first?.group).toBe("language servers");
    expect(report.counts).toEqual({ ok: 3, fail: 2, warn: 1, unused: 1 });
    // Unused rows go last in their group; the rest keep the domain's order (an interpreter before its libraries).
    expect(report.rows.filter((r) => r.group === "language servers").map((r) => r.name)).toEqual(["python", "dart"]);
    expect(report.rows.filter((r) => r.group === "kernels").map((r) => r.status)).toEqual(["ok", "warn", "fail"]);
    const table = formatReport(report);
    expect(table.split("\n").slice(2, 4)).toEqual(["FAIL: language servers: python: binary not found (and 1 more below)", "  hint: install it"]);
    expect(table).toContain("  ok    2 grammars             load from the binary: python, go");
    expect(table).toContain("  -     dart                   not used here: no root marker");
    expect(table).toContain("3 ok, 2 not working, 1 optional missing, 1 not used here");
  });

  test("with nothing failing, the first line says so", () => {
    const table = formatReport(buildReport("/w", [[row("grammars", "go")], [row("kernels", "  pandas", { ok: false, optional: true, detail: "missing" })]]));
    expect(table.split("\n")[2]).toBe("ok: everything this checkout uses works (1 optional library is missing).");
  });
});
