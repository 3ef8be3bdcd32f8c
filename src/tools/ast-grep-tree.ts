// ast_grep's syntax_tree option: what the grammar sees of a snippet or a file's lines, and how a
// pattern parsed, for writing `kind` rules and patterns (ast-grep-mcp's dump_syntax_tree).
import * as v from "valibot";
import type { SyntaxService } from "../syntax/service.ts";

const DEFAULT_DEPTH = 12;
/** Lines of tree drawn at most: a whole file's tree would flood the answer. */
const MAX_NODES = 400;

export const syntaxTreeArg = v.optional(
  v.pipe(
    v.strictObject({
      code: v.optional(
        v.pipe(
          v.string("expected code as a string"),
          v.maxLength(20_000, "expected at most 20000 characters of code; pass a file as path and lines instead"),
          v.description("A snippet to draw, parsed in language; without it the file at path is drawn."),
        ),
      ),
      lines: v.optional(
        v.pipe(
          v.string('expected lines as "10-30" or "12"'),
          v.regex(/^\s*\d+\s*(-\s*\d+\s*)?$/, 'expected lines as "10-30" or "12" (1-based, inclusive)'),
          v.description('The file\'s lines to draw, 1-based and inclusive: "10-30" or "12"; default all.'),
        ),
      ),
      depth: v.optional(v.pipe(v.number(), v.integer("expected a whole number"), v.minValue(1), v.maxValue(50), v.description("Levels drawn below each top node (default 12, at most 50)."))),
    }),
    v.description(
      "Show the syntax tree instead of searching: of `code` (with language) or of the file at path (`lines` \"10-30\" narrows it), as named nodes with field names and positions, `depth` levels deep (default 12). With pattern, also how the pattern parsed (its context and root node). Use it to find node kinds and fields for a rule.",
    ),
  ),
);

type TreeInput = NonNullable<v.InferOutput<typeof syntaxTreeArg>>;

export async function syntaxTreeReply(syntax: SyntaxService, tree: TreeInput, input: { pattern?: string; path?: string; language?: string }) {
  const [start = 1, end = start] = (tree.lines ?? "").split("-").map((n) => Number(n.trim()));
  const answer = await syntax.syntaxTree({
    code: tree.code,
    path: tree.code === undefined ? input.path : undefined,
    language: input.language,
    pattern: input.pattern,
    lines: tree.lines !== undefined ? { start, end: Math.max(start, end) } : undefined,
    depth: tree.depth ?? DEFAULT_DEPTH,
    maxNodes: MAX_NODES,
  });
  const notes: string[] = [];
  const drawn = answer.tree;
  if (drawn && drawn.leftOut > 0) notes.push(`${drawn.leftOut} deeper or later node(s) not shown (${drawn.drawn} drawn, at most ${MAX_NODES}): raise depth, or narrow lines`);
  if (drawn && drawn.broken > 0) notes.push(`${drawn.broken} ERROR or MISSING node(s): the ${answer.language} grammar could not read part of the code`);
  if (drawn && drawn.text === "") notes.push("no node overlaps those lines");
  const text = [answer.pattern, drawn?.text, ...notes.map((n) => `note: ${n}`)].filter((t) => t !== undefined && t !== "").join("\n");
  return {
    text,
    data: { language: answer.language, context: "", matches: [], total: 0, shown: 0, files_searched: 0, files_matched: 0, notes, syntax_tree: [answer.pattern, drawn?.text].filter(Boolean).join("\n") },
  };
}
