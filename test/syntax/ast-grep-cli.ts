// Runs the real ast-grep CLI (devDependency @ast-grep/cli) for differential tests, and shows its
// matches as `line:column-line:column first line of text` (1-based), the form the tests compare.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export const AST_GREP = join(import.meta.dir, "../../node_modules/.bin/ast-grep");

interface AstGrepMatch {
  text: string;
  range: { start: { line: number; column: number }; end: { line: number; column: number } };
}

/** ast-grep's matches; `rule` is a YAML rule for `scan`, else `pattern` is run. `args` are added (--update-all). */
export function astGrep(pattern: string, language: string, file: string, rule?: string, args: string[] = []): string[] {
  if (!existsSync(AST_GREP)) throw new Error("ast-grep CLI missing: run `npm ci` (devDependency @ast-grep/cli).");
  const command = rule === undefined ? ["run", "-p", pattern, "-l", language, "--json=compact", ...args, file] : ["scan", "--inline-rules", rule, "--json=compact", ...args, file];
  let out: string;
  try {
    out = execFileSync(AST_GREP, command, { encoding: "utf8", stdio: "pipe" });
  } catch (error) {
    // ast-grep exits 1 when nothing matched; its JSON answer is still on stdout.
    const failed = error as { status?: number; stdout?: string; stderr?: string };
    if (failed.status !== 1 || failed.stdout === undefined || failed.stdout === "") throw new Error(`ast-grep failed: ${failed.stderr ?? error}`);
    out = failed.stdout;
  }
  return (JSON.parse(out) as AstGrepMatch[])
    .map((m) => `${m.range.start.line + 1}:${m.range.start.column + 1}-${m.range.end.line + 1}:${m.range.end.column + 1} ${m.text.split("\n")[0]}`)
    .sort(byPosition);
}

/** ast-grep applies a rule's fix to the file in place (`scan --update-all`). */
export function astGrepFix(rule: string, file: string): void {
  try {
    execFileSync(AST_GREP, ["scan", "--inline-rules", rule, "--update-all", file], { encoding: "utf8", stdio: "pipe" });
  } catch (error) {
    const failed = error as { status?: number; stderr?: string };
    if (failed.status !== 1) throw new Error(`ast-grep failed: ${failed.stderr ?? error}`);
  }
}

export function byPosition(a: string, b: string): number {
  const [al, ac, bl2, bc2] = a.split(/[:\- ]/).map(Number);
  const [bl, bc, el, ec] = b.split(/[:\- ]/).map(Number);
  return al! - bl! || ac! - bc! || el! - bl2! || ec! - bc2!;
}
