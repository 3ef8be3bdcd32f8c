// The project checkers' output parsers, table-driven on output captured from each tool's format.
import { describe, expect, test } from "bun:test";
import { describeWriteOutcome } from "../../src/lsp/write-report.ts";
import { BUILTIN_SERVERS } from "../../src/lsp/catalog.ts";
import { parseCheckerOutput, runChecker } from "../../src/lsp/checkers.ts";
import type { LaunchContext, Trust } from "../../src/lsp/launch.ts";
import { sidecarBun } from "../../src/lsp/provision/bun.ts";
import { ServerProvisioner } from "../../src/lsp/provision/provisioner.ts";
import { TRUST_ALL } from "../../src/platform/executables.ts";
import { SourceLines } from "../../src/lsp/present.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { requireBinary } from "./fixtures.ts";

const ROOT = "/w/proj";
const lines = new SourceLines("/w");
const spec = (id: string) => BUILTIN_SERVERS.find((s) => s.id === id)!;
/** Checkers found on PATH only: install "never" into a cache that stays empty. */
const context = (workdir: string, trust: Trust): LaunchContext => ({ workdir, trust, provisioner: new ServerProvisioner(`${workdir}/.no-cache`, "never", BUILTIN_SERVERS, sidecarBun(TRUST_ALL)) });

describe("parseCheckerOutput reads each checker's format into diagnostic rows", () => {
  test.each([
    [
      "tsc",
      "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n",
      "",
      [{ path: "proj/src/a.ts", line: 3, severity: "error", code: "TS2322", source: "tsc", message: "Type 'string' is not assignable to type 'number'." }],
    ],
    [
      "pyright-json",
      JSON.stringify({ generalDiagnostics: [{ file: "/w/proj/m.py", severity: "warning", message: "Import could not be resolved", rule: "reportMissingImports", range: { start: { line: 0, character: 0 } } }] }),
      "",
      [{ path: "proj/m.py", line: 1, severity: "warning", code: "reportMissingImports", source: "pyright", message: "Import could not be resolved" }],
    ],
    [
      "gcc",
      "",
      "# example.com/w\nvet: ./main.go:4:2: undefined: nope\n./util.go:9:1: unreachable code\n./util.go:20:1: too many errors\n",
      [
        { path: "proj/main.go", line: 4, severity: "error", source: "go vet", message: "undefined: nope" },
        { path: "proj/util.go", line: 9, severity: "error", source: "go vet", message: "unreachable code" },
      ],
    ],
    [
      "cargo-json",
      [
        JSON.stringify({ reason: "compiler-artifact" }),
        JSON.stringify({ reason: "compiler-message", message: { level: "error", message: "cannot find value `x`", code: { code: "E0425" }, spans: [{ file_name: "src/lib.rs", line_start: 2, is_primary: true }] } }),
        JSON.stringify({ reason: "compiler-message", message: { level: "warning", message: "unused variable", code: null, spans: [{ file_name: "src/lib.rs", line_start: 5, is_primary: true }] } }),
      ].join("\n"),
      "",
      [
        { path: "proj/src/lib.rs", line: 2, severity: "error", code: "E0425", source: "cargo", message: "cannot find value `x`" },
        { path: "proj/src/lib.rs", line: 5, severity: "warning", source: "cargo", message: "unused variable" },
      ],
    ],
    [
      "dart-machine",
      "",
      "ERROR|COMPILE_TIME_ERROR|UNDEFINED_IDENTIFIER|/w/proj/lib/a.dart|3|5|4|Undefined name 'nope'.\n",
      [{ path: "proj/lib/a.dart", line: 3, severity: "error", code: "undefined_identifier", source: "dart", message: "Undefined name 'nope'." }],
    ],
  ] as const)("%s", (format, stdout, stderr, expected) => {
    expect(parseCheckerOutput(format, stdout, stderr, ROOT, lines)).toEqual(expected as never);
  });

  test("pyright output that is not JSON is an error naming what it printed", () => {
    expect(() => parseCheckerOutput("pyright-json", "No configuration file found.", "", ROOT, lines)).toThrow(/pyright printed no JSON report: No configuration file found/);
  });
});

describe("a checker that fails without a finding", () => {
  test("tsc in a root with no tsconfig.json prints its help and exits 1: that is not checked, never 0 findings", async () => {
    requireBinary("tsc", "npm i -D typescript@5");
    await using dir = await tempDir();
    await dir.write({ "package.json": "{}", "a.ts": "export const a: number = 'one';\n" });
    const checking = runChecker(spec("typescript"), spec("typescript").checker!, dir.path, context(dir.path, "none"), new SourceLines(dir.path));
    await expect(checking).rejects.toThrow(/^`tsc --noEmit --pretty false` exited with status 1 without a finding it could read \(it said: "Version 5/);
  });
});

describe("the compile_commands.json checker", () => {
  test("runs each entry's own compiler with -fsyntax-only and reads its errors", async () => {
    requireBinary("gcc", "apt-get install gcc");
    await using dir = await tempDir();
    await dir.write({
      "c/main.c": "int main(void) { return nope; }\n",
      "c/compile_commands.json": JSON.stringify([{ directory: ".", file: "main.c", arguments: ["gcc", "-std=c11", "-c", "main.c", "-o", "main.o"] }]),
    });
    const run = await runChecker(spec("c"), spec("c").checker!, `${dir.path}/c`, context(dir.path, "workspace"), new SourceLines(dir.path));
    expect(run.rows).toEqual([expect.objectContaining({ path: "c/main.c", line: 1, severity: "error", source: "clang", message: expect.stringContaining("nope") })]);
  });
});

describe("the few lines a harness appends to a write's result", () => {
  test("a message's own later lines stay indented under it", () => {
    const text = describeWriteOutcome({
      status: "fresh",
      new: [{ path: "c/buf.c", line: 3, severity: "error", message: "conflicting types for 'f'\n/tmp/w/c/include/buf.h:5:5: note: previous declaration" }],
      files: [{ path: "c/buf.c", status: "fresh", new: [], already: 0, fixed: 0 }],
      uncompared: 0,
    });
    expect(text).toBe("1 new diagnostic after this write:\n  c/buf.c:3: error: conflicting types for 'f'\n    /tmp/w/c/include/buf.h:5:5: note: previous declaration");
  });
});
