// The harness client's hand-written wire types are the sidecar's own: wire-types.ts, which states
// each as a type that compiles only when the two agree, is compiled here with the TypeScript
// compiler, next to a control that states one false agreement, which must not compile.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import ts from "typescript";

const ROOT = join(import.meta.dir, "..", "..");
const WIRE_TYPES = join(import.meta.dir, "wire-types.ts");
/** Exists only in the compiler host below. */
const CONTROL = join(import.meta.dir, "wire-types-control.ts");
const CONTROL_TEXT = [
  'import type * as client from "../../packages/harness-client/src/index.ts";',
  'import type { QuestionCard } from "../../src/questions/card.ts";',
  'import type { Equal, Holds } from "./wire-types.ts";',
  "// A card without its id is not a card: this must fail to compile.",
  'export type Control = Holds<Equal<client.QuestionCard, Omit<QuestionCard, "id">>>;',
  "",
].join("\n");
/** Compiling the sidecar types wire-types.ts reaches takes seconds of CPU; more on a loaded machine. */
const COMPILE_TIMEOUT_MS = 120_000;

function compilerErrors(): Map<string, string[]> {
  const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => file === CONTROL || fileExists(file);
  host.readFile = (file) => (file === CONTROL ? CONTROL_TEXT : readFile(file));
  host.getSourceFile = (file, language, ...rest) =>
    file === CONTROL ? ts.createSourceFile(file, CONTROL_TEXT, language) : getSourceFile(file, language, ...rest);
  const program = ts.createProgram([WIRE_TYPES, CONTROL], options, host);
  const errors = (file: string) => {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`the compiler did not load ${file}`);
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(
      (d) => `line ${source.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
    );
  };
  return new Map([WIRE_TYPES, CONTROL].map((file) => [file, errors(file)]));
}

describe("the harness client's wire types", () => {
  test(
    "are the sidecar's own: wire-types.ts compiles, and the control's false agreement does not",
    () => {
      const errors = compilerErrors();
      expect(errors.get(WIRE_TYPES)).toEqual([]);
      expect(errors.get(CONTROL)).toEqual([expect.stringMatching(/^line 5: Type 'false' does not satisfy the constraint 'true'/)]);
    },
    COMPILE_TIMEOUT_MS,
  );
});
