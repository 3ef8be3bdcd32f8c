// Doctor checks for the parser: every embedded grammar loads and parses.
import type { DoctorGroup } from "../doctor/check.ts";
import { GRAMMARS, GrammarLoader } from "./grammars.ts";

export const grammarChecks: DoctorGroup = async ({ runtime }) => {
  const loader = new GrammarLoader(runtime.grammars);
  return Promise.all(
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
};
