// Settings of the tree-sitter parser resource (ast_grep, ast_edit, resolve).
import * as v from "valibot";

export const parserSettings = v.strictObject({});
export type ParserSettings = v.InferOutput<typeof parserSettings>;
