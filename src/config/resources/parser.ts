// Settings of the tree-sitter parser resource (ast_grep, ast_edit, resolve).
import * as v from "valibot";
import { configObject } from "./shared.ts";

const positiveInteger = (what: string) => v.pipe(v.number(`expected ${what}`), v.integer(`expected ${what}`), v.minValue(0, `expected ${what}`));

export const parserSettings = configObject({
  /** Files larger than this are not searched; default 1 MiB. */
  maxFileBytes: v.optional(positiveInteger("a byte count")),
  /** Parse worker threads; default one per core, 0 parses on the main thread. */
  workers: v.optional(v.pipe(positiveInteger("a worker count"), v.maxValue(64, "expected at most 64 workers"))),
  /** Source size (MiB) whose parse trees are kept per worker; default 24. */
  cacheMiB: v.optional(positiveInteger("a size in MiB")),
  /** Source size (MiB) each worker parses ahead once the run serves, in the workdir's commonest languages; default 8, 0 starts no worker before the first search. */
  warmMiB: v.optional(positiveInteger("a size in MiB")),
});
export type ParserSettings = v.InferOutput<typeof parserSettings>;
