// Doctor checks for the parser: every embedded grammar loads and parses, and parse workers start.
import type { DoctorGroup } from "../doctor/check.ts";
import { GRAMMARS, GrammarLoader } from "./grammars.ts";
import { ParsePool } from "./parse-pool.ts";

export const grammarChecks: DoctorGroup = async ({ runtime }) => {
  const loader = new GrammarLoader(runtime.grammars);
  const rows = await Promise.all(
    GRAMMARS.map(async (grammar) => {
      try {
        const parser = await loader.parser(grammar.id);
        const tree = parser.parse("");
        parser.delete();
        return { group: "grammars", name: grammar.id, ok: tree !== null, detail: `${grammar.package}@${grammar.version}` };
      } catch (error) {
        return {
          group: "grammars",
          name: grammar.id,
          ok: false,
          detail: `failed to load: ${(error as Error).message}`,
          hint: "rebuild with `bun compile.ts`; the grammar bytes are embedded at build time",
        };
      }
    }),
  );
  return [...rows, await parseWorkerCheck(runtime)];
};

/** Starts one parse worker and runs an empty search on it: the compiled binary must embed the worker. */
async function parseWorkerCheck(runtime: Parameters<DoctorGroup>[0]["runtime"]) {
  const pool = new ParsePool({ source: runtime.grammars, spawnWorker: runtime.spawnParseWorker, workers: 1, cacheChars: 0 });
  try {
    await pool.run({ language: "javascript", pattern: "x", files: [] });
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
