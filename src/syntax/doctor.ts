// Doctor checks for the parser: every embedded grammar is intact (sha256 as in the manifest) and
// parses, and parse workers start.
import { createHash } from "node:crypto";
import type { DoctorGroup } from "../doctor/check.ts";
import { GRAMMARS, GrammarLoader } from "./grammars.ts";
import { ParsePool } from "./parse-pool.ts";

export const grammarChecks: DoctorGroup = async ({ runtime }) => {
  const loader = new GrammarLoader(runtime.grammars);
  const rows = await Promise.all(
    GRAMMARS.map(async (grammar) => {
      const row = { group: "grammars", name: grammar.id };
      try {
        const bytes = await runtime.grammars.grammarBytes(grammar.id);
        const sha256 = createHash("sha256").update(bytes).digest("hex");
        if (sha256 !== grammar.sha256) {
          return { ...row, ok: false, detail: `embedded bytes have sha256 ${sha256.slice(0, 12)}…, the manifest says ${grammar.sha256.slice(0, 12)}…`, hint: "regenerate with `bun build/grammars.ts` and rebuild" };
        }
        const parser = await loader.parser(grammar.id);
        const tree = parser.parse("");
        parser.delete();
        return { ...row, ok: tree !== null, detail: `${grammar.package}@${grammar.version}, ${(bytes.length / 1024).toFixed(0)} KiB` };
      } catch (error) {
        return { ...row, ok: false, detail: `failed to load: ${(error as Error).message}`, hint: "rebuild with `bun compile.ts`; grammar bytes are embedded at build time" };
      }
    }),
  );
  return [...rows, await parseWorkerCheck(runtime)];
};

/** Starts one parse worker and runs an empty search on it: the compiled binary must embed the worker. */
async function parseWorkerCheck(runtime: Parameters<DoctorGroup>[0]["runtime"]) {
  const pool = new ParsePool({ source: runtime.grammars, spawnWorker: runtime.spawnParseWorker, workers: 1, cacheChars: 0 });
  try {
    await pool.run({ root: process.cwd(), language: "javascript", pattern: "x", scope: { kind: "files", files: [] } });
    const ok = pool.fallbackReason === undefined;
    return {
      group: "syntax",
      name: "parse workers",
      ok,
      detail: ok ? "worker threads start" : `${pool.fallbackReason} (searches still work, on one thread)`,
      ...(ok ? {} : { hint: "compile with `bun compile.ts`, which embeds src/syntax/parse-worker.ts as a second entrypoint" }),
    };
  } finally {
    await pool.close();
  }
}
