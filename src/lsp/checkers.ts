// Project checkers for `diagnostics "*"`: run the root's whole-project check and read it into diagnostic rows.
import { isAbsolute, join, resolve } from "node:path";
import { capture, type Output } from "./capture.ts";
import type { ProjectChecker, ServerSpec } from "./catalog.ts";
import { syntaxCheckFlags } from "./compile-flags.ts";
import { baseEnv, findOnPath, TRUST_HINT, type LaunchContext } from "./launch.ts";
import type { DiagnosticRow, SourceLines } from "./present.ts";
import { checkerLaunchFor } from "./server-source.ts";
import { readRegularFileSync } from "../workspace/regular-file.ts";
import { isInside, leadsOutOfWorkdir } from "../workspace/paths.ts";

/** A whole-project check gets this long before it is stopped and reported as timed out. */
const CHECKER_TIMEOUT_MS = 180_000;
/** compile_commands.json can list thousands of files; the check covers this many. */
const COMPILE_COMMANDS_MAX_FILES = 200;

interface CheckerRun {
  rows: DiagnosticRow[];
  timedOut: boolean;
  /** The command line that ran, for the answer. */
  command: string;
}

export async function runChecker(spec: ServerSpec, checker: ProjectChecker, root: string, ctx: LaunchContext, lines: SourceLines, signal?: AbortSignal): Promise<CheckerRun> {
  if (checker.format === "compile-commands") return runCompileCommands(root, ctx, lines, signal);
  const launch = await checkerLaunchFor(spec, checker, root, ctx);
  const output = await capture(launch.command, launch.args, root, CHECKER_TIMEOUT_MS, signal, launch.env);
  const parse = PARSERS[checker.format];
  const command = [checker.command, ...checker.args].join(" ");
  const rows = parse(output, root, lines);
  // A check that failed without a finding did not check anything: tsc with no tsconfig.json prints
  // its help and exits 1, which read as "0 findings".
  if (rows.length === 0 && !output.timedOut && output.exitCode !== 0) {
    const said = `${output.stdout}\n${output.stderr}`.split("\n").map((line) => line.trim()).find(Boolean) ?? "no output";
    throw new Error(`\`${command}\` exited with status ${output.exitCode ?? "unknown"} without a finding it could read (it said: ${JSON.stringify(said.slice(0, 200))})`);
  }
  return { rows, timedOut: output.timedOut, command };
}

/** Reads a checker's captured output into rows (exported for the parser tests). */
export function parseCheckerOutput(format: Exclude<ProjectChecker["format"], "compile-commands">, stdout: string, stderr: string, root: string, lines: SourceLines): DiagnosticRow[] {
  return PARSERS[format]({ stdout, stderr, timedOut: false, exitCode: 0 }, root, lines);
}

type Parser = (output: Output, root: string, lines: SourceLines) => DiagnosticRow[];

const TSC_LINE = /^(.+?)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/;
const GCC_LINE = /^(.+?):(\d+):(?:(\d+):)? (?:(fatal error|error|warning|note): )?(.*)$/;

const PARSERS: Record<Exclude<ProjectChecker["format"], "compile-commands">, Parser> = {
  tsc: ({ stdout }, root, lines) =>
    stdout.split("\n").flatMap((text) => {
      const m = TSC_LINE.exec(text.trim());
      if (!m) return [];
      return [{ path: lines.display(resolve(root, m[1]!)), line: Number(m[2]), severity: m[4] === "warning" ? "warning" : m[4] === "message" ? "info" : "error", code: m[5]!, source: "tsc", message: m[6]! }];
    }),
  "pyright-json": ({ stdout }, _root, lines) => {
    let report: { generalDiagnostics?: { file: string; severity: string; message: string; rule?: string; range?: { start: { line: number } } }[] };
    try {
      report = JSON.parse(stdout);
    } catch {
      throw new Error(`pyright printed no JSON report: ${stdout.slice(0, 200)}`);
    }
    return (report.generalDiagnostics ?? []).map((d) => ({
      path: lines.display(d.file),
      line: (d.range?.start.line ?? 0) + 1,
      severity: d.severity === "error" ? "error" : d.severity === "warning" ? "warning" : "info",
      ...(d.rule ? { code: d.rule } : {}),
      source: "pyright",
      message: d.message,
    }));
  },
  gcc: ({ stdout, stderr }, root, lines) => gccRows(`${stdout}\n${stderr}`, root, lines, "go vet"),
  "cargo-json": ({ stdout }, root, lines) =>
    stdout.split("\n").flatMap((text) => {
      let item: { reason?: string; message?: { level: string; message: string; code?: { code: string } | null; spans: { file_name: string; line_start: number; is_primary: boolean }[] } };
      try {
        item = JSON.parse(text);
      } catch {
        return [];
      }
      const message = item.message;
      const span = message?.spans.find((s) => s.is_primary);
      if (item.reason !== "compiler-message" || !message || !span) return [];
      return [{ path: lines.display(resolve(root, span.file_name)), line: span.line_start, severity: message.level === "warning" ? "warning" : message.level.startsWith("error") ? "error" : "info", ...(message.code ? { code: message.code.code } : {}), source: "cargo", message: message.message }];
    }),
  "dart-machine": ({ stdout, stderr }, root, lines) =>
    `${stdout}\n${stderr}`.split("\n").flatMap((text) => {
      const parts = text.split("|");
      if (parts.length < 8) return [];
      const [severity, , code, file, line] = parts;
      return [{ path: lines.display(resolve(root, file!)), line: Number(line), severity: severity === "ERROR" ? "error" : severity === "WARNING" ? "warning" : "info", code: code!.toLowerCase(), source: "dart", message: parts.slice(7).join("|") }];
    }),
};

function gccRows(text: string, root: string, lines: SourceLines, source: string): DiagnosticRow[] {
  return text.split("\n").flatMap((raw) => {
    const m = GCC_LINE.exec(raw.trim().replace(/^vet: /, ""));
    // go vet's "too many errors" line says the list was cut; it is no finding of its own.
    if (!m || m[4] === "note" || !/\.\w+$/.test(m[1]!) || m[5] === "too many errors") return [];
    return [{ path: lines.display(resolve(root, m[1]!)), line: Number(m[2]), severity: m[4] === "warning" ? "warning" : "error", source, message: m[5]! }];
  });
}

/**
 * clang's -fsyntax-only over each compile_commands.json entry, in its directory. Trusted, with the
 * entry's own compiler and flags; untrusted, with clang from PATH and only the entry's harmless flags.
 */
async function runCompileCommands(root: string, ctx: LaunchContext, lines: SourceLines, signal?: AbortSignal): Promise<CheckerRun> {
  const trusted = ctx.trust === "workspace";
  const clang = trusted ? undefined : findOnPath("clang", ctx);
  if (!trusted && !clang) throw new Error(`clang not found on PATH: an untrusted workspace's compile_commands.json gives only flags, never the compiler that runs (install clang, or ${TRUST_HINT})`);
  let entries: { directory: string; file: string; arguments?: string[]; command?: string }[];
  try {
    entries = JSON.parse(readRegularFileSync(join(root, "compile_commands.json")).toString("utf8")); // a FIFO would block the main thread
  } catch (error) {
    throw new Error(`cannot read compile_commands.json in the root: ${(error as Error).message}`);
  }
  const rows: DiagnosticRow[] = [];
  let timedOut = false;
  let outside = 0;
  for (const entry of entries.slice(0, COMPILE_COMMANDS_MAX_FILES)) {
    if (signal?.aborted) break;
    const argv = entry.arguments ?? entry.command?.split(/\s+/).filter(Boolean) ?? [];
    const [compiler, ...rest] = argv;
    if (!compiler) continue;
    const directory = isAbsolute(entry.directory) ? entry.directory : resolve(root, entry.directory);
    // Untrusted, an entry may not aim clang at a file outside the workspace: its tokens would come
    // back in the messages ("unknown type name 'aws_secret…'"), a read the plan surface may not make.
    if (!trusted && (leadsOutOfWorkdir(ctx.workdir, directory) || leadsOutOfWorkdir(ctx.workdir, resolve(directory, entry.file)) || !isInside(ctx.workdir, resolve(directory, entry.file)))) {
      outside++;
      continue;
    }
    const [command, args] = clang ? [clang, [...syntaxCheckFlags(rest), "-fsyntax-only", entry.file]] : [compiler, [...rest.filter((arg, i) => arg !== "-o" && rest[i - 1] !== "-o" && arg !== "-c"), "-fsyntax-only"]];
    const output = await capture(command, args, directory, CHECKER_TIMEOUT_MS, signal, baseEnv(ctx));
    timedOut ||= output.timedOut;
    rows.push(...gccRows(output.stderr, directory, lines, "clang"));
  }
  const skipped = outside > 0 ? `; ${outside} entr${outside === 1 ? "y" : "ies"} naming a file or folder outside the workspace skipped (${TRUST_HINT})` : "";
  return { rows, timedOut, command: trusted ? "each compile_commands.json entry with -fsyntax-only" : `${clang} -fsyntax-only with each compile_commands.json entry's flags${skipped}` };
}
