// The ast-grep benches' corpus and cases, and one run of the ast-grep CLI over them
// (bench/ast-grep.ts against the sidecar, bench/wasm-floor.ts against bare web-tree-sitter).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { cpuSeconds } from "./cpu-time.ts";

const root = join(import.meta.dir, "..");
const AST_GREP = join(root, "node_modules/.bin/ast-grep");
/** Files above this are left out of the copied corpus (the sidecar's default limit too). */
const MAX_BYTES = 1024 * 1024;

export interface Case {
  language: string;
  astGrepLanguage: string;
  pattern: string;
}

/** Over the --corpus checkouts: 14 patterns in 9 languages. */
export const CORPUS_CASES: Case[] = [
  { language: "python", astGrepLanguage: "python", pattern: "isinstance($X, $T)" },
  { language: "python", astGrepLanguage: "python", pattern: "raise $E($$$A)" },
  { language: "go", astGrepLanguage: "go", pattern: "if err != nil { $$$B }" },
  { language: "go", astGrepLanguage: "go", pattern: "return $A, err" },
  { language: "rust", astGrepLanguage: "rust", pattern: "$X.unwrap()" },
  { language: "rust", astGrepLanguage: "rust", pattern: "Arc::new($X)" },
  { language: "c", astGrepLanguage: "c", pattern: "zfree($P);" },
  { language: "c", astGrepLanguage: "c", pattern: "memcpy($D, $S, $N)" },
  { language: "java", astGrepLanguage: "java", pattern: "throw new IllegalArgumentException($$$A)" },
  { language: "cpp", astGrepLanguage: "cpp", pattern: "IM_ASSERT($$$A)" },
  { language: "dart", astGrepLanguage: "dart", pattern: "setState($$$A)" },
  { language: "typescript", astGrepLanguage: "typescript", pattern: "$A ?? $B" },
  { language: "typescript", astGrepLanguage: "typescript", pattern: "export function $F($$$P) { $$$B }" },
  { language: "javascript", astGrepLanguage: "javascript", pattern: "$A.forEach($$$B)" },
];

export const DEFAULT_CASES: Case[] = [
  { language: "javascript", astGrepLanguage: "javascript", pattern: "console.log($$$A)" },
  { language: "javascript", astGrepLanguage: "javascript", pattern: "new Promise($$$A)" },
  { language: "javascript", astGrepLanguage: "javascript", pattern: "$A === undefined" },
  { language: "javascript", astGrepLanguage: "javascript", pattern: "Object.keys($O)" },
  { language: "typescript", astGrepLanguage: "typescript", pattern: "export declare function $F($$$P): $R;" },
  { language: "typescript", astGrepLanguage: "typescript", pattern: "$A as $T" },
  { language: "typescript", astGrepLanguage: "typescript", pattern: "$A ?? $B" },
  { language: "python", astGrepLanguage: "python", pattern: "isinstance($X, $T)" },
  { language: "python", astGrepLanguage: "python", pattern: "raise $E($$$A)" },
];

/** Copies files of the given extensions from `from` into the corpus under `as` (skipping hidden paths and big files). */
function gather(from: string, as: string, corpus: string, accept: (name: string) => boolean, limit = 4000): number {
  let copied = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (copied >= limit || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && accept(entry.name) && statSync(path).size <= MAX_BYTES) {
        const target = join(corpus, as, relative(from, path).replaceAll("node_modules", "nm"));
        mkdirSync(dirname(target), { recursive: true });
        cpSync(path, target);
        copied++;
      }
    }
  };
  if (existsSync(from)) walk(from);
  return copied;
}

export function buildCorpus(): string {
  const corpus = join(tmpdir(), "sidecar-bench-corpus");
  rmSync(corpus, { recursive: true, force: true });
  mkdirSync(corpus, { recursive: true });
  const js = gather(join(root, "node_modules"), "js", corpus, (n) => n.endsWith(".js"));
  const ts = gather(join(root, "node_modules"), "ts", corpus, (n) => n.endsWith(".ts") && !n.endsWith(".d.mts"));
  const py = gather("/usr/lib/python3.11", "py", corpus, (n) => n.endsWith(".py"));
  console.log(`corpus ${corpus}: ${js} .js, ${ts} .ts, ${py} .py files`);
  return corpus;
}

/** One `ast-grep run` of a case over the corpus (`nice` steps down when given): wall ms, CPU s, and its matches. */
export function astGrepRun(c: Case, corpus: string, nice = 0): { ms: number; cpu: number; count: number; keys: Set<string> } {
  const started = performance.now();
  const cpuBefore = cpuSeconds(process.pid, { reaped: true }) - cpuSeconds(process.pid);
  const args = ["run", "-p", c.pattern, "-l", c.astGrepLanguage, "--json=compact", corpus];
  const [command, argv] = nice > 0 ? ["nice", ["-n", String(nice), AST_GREP, ...args]] : [AST_GREP, args];
  const run = spawnSync(command, argv, { encoding: "utf8", maxBuffer: 1 << 28 });
  const ms = performance.now() - started;
  const cpu = cpuSeconds(process.pid, { reaped: true }) - cpuSeconds(process.pid) - cpuBefore;
  const found = JSON.parse(run.stdout || "[]") as { file: string; range: { start: { line: number; column: number } } }[];
  // Nested matches can share a start (`a as B as C`), so the count is kept apart from the key set.
  return { ms, cpu, count: found.length, keys: new Set(found.map((m) => `${relative(corpus, m.file)}:${m.range.start.line + 1}:${m.range.start.column + 1}`)) };
}
