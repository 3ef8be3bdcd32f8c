// Leak check of the ast_grep path alone: 8 rounds of 200 searches over a copy of this repository,
// at a given concurrency, with a full GC before each reading. A flat heap means no leak.
// Usage: bun bench/ast-grep-memory.ts [CONCURRENCY=1]
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect as connectSyntax } from "../src/syntax/connect.ts";
import { bunPrimitives } from "../src/runtime/bun.ts";
import { Lifecycle } from "../src/host/lifecycle.ts";
import { countArg } from "./args.ts";

const ROUNDS = 8;
const SEARCHES_PER_ROUND = 200;
const root = join(import.meta.dir, "..");
const workdir = mkdtempSync(join(tmpdir(), "leak-"));
for (const part of ["src", "test", "bench", "tsconfig.json", "package.json"]) cpSync(join(root, part), join(workdir, part), { recursive: true });
const lifecycle = new Lifecycle();
const syntax = connectSyntax({}, { workdir, conversation: undefined, stateDir: undefined, trust: "none", runtime: bunPrimitives, lifecycle });
const concurrency = countArg(2, "CONCURRENCY", 1, "bun bench/ast-grep-memory.ts [CONCURRENCY=1]");
const rss = () => (process.memoryUsage().rss / 2 ** 20).toFixed(0);
for (let round = 0; round < ROUNDS; round++) {
  const s = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    for (let i = 0; i < Math.ceil(SEARCHES_PER_ROUND / concurrency); i++) await syntax.search({ pattern: "await $X.close()", language: "typescript" });
  }));
  Bun.gc(true);
  console.log(`round ${round}: ${(performance.now() - s).toFixed(0)} ms, rss ${rss()} MB, heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`);
}
await lifecycle.close();
rmSync(workdir, { recursive: true, force: true });
