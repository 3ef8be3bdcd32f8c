// ast_grep: structural search over the workspace with metavariables (read tier).
import * as v from "valibot";
import { defineTool } from "../tool/define.ts";
import { pageNote, refusePastEnd } from "../tool/paging.ts";
import type { SyntaxService } from "../syntax/service.ts";
import description from "./ast-grep.txt" with { type: "text" };
import { syntaxTreeArg, syntaxTreeReply } from "./ast-grep-tree.ts";
import { describeQuery, everyFileParsedNote, formatMatch, languageArg, matchesOf, matchSchema, pathArg, patternArg, ruleArg, ruleDescription, ruleOf, skippedNotes } from "./ast-grep-shared.ts";

const DEFAULT_MAX_RESULTS = 50;

export function astGrepTool(syntax: SyntaxService) {
  return defineTool({
    name: "ast_grep",
    title: "Structural code search",
    tier: "read",
    description,
    input: v.pipe(
      v.strictObject({
        pattern: patternArg,
        rule: v.pipe(ruleArg, v.description(ruleDescription)),
        path: pathArg,
        language: languageArg,
        syntax_tree: syntaxTreeArg,
        max_results: v.optional(
          v.pipe(v.number("expected a whole number"), v.integer("expected a whole number"), v.minValue(1), v.maxValue(1000), v.description("How many matches to show (default 50, at most 1000); the total is always counted.")),
        ),
        offset: v.optional(
          v.pipe(v.number("expected a whole number"), v.integer("expected a whole number"), v.minValue(0), v.description("How many matches to skip, in path order: the answer says the offset of the next page.")),
        ),
      }),
      v.check((input) => input.syntax_tree === undefined || input.rule === undefined, "syntax_tree shows code's tree and a pattern's parse; it takes no rule"),
      v.check((input) => input.syntax_tree !== undefined || (input.pattern === undefined) !== (input.rule === undefined), "give pattern (a code fragment) or rule (an ast-grep rule config), exactly one of them"),
    ),
    output: v.object({
      language: v.string(),
      context: v.string(),
      matches: v.array(matchSchema),
      total: v.number(),
      shown: v.number(),
      files_searched: v.number(),
      files_matched: v.number(),
      notes: v.array(v.string()),
      /** With syntax_tree: the drawing (also the text). */
      syntax_tree: v.optional(v.string()),
    }),
    async run(input, ctx) {
      if (input.syntax_tree !== undefined) return syntaxTreeReply(syntax, input.syntax_tree, input);
      const maxResults = input.max_results ?? DEFAULT_MAX_RESULTS;
      const offset = input.offset ?? 0;
      const rule = await ruleOf(input.rule, false);
      const answer = await syntax.search({ pattern: input.pattern ?? "", rule, path: input.path, language: input.language, maxRecords: offset + maxResults, signal: ctx.signal, progress: ctx.progress });
      const total = answer.outcomes.reduce((n, o) => n + o.count, 0);
      refusePastEnd(offset, total);
      // Each worker built up to offset + maxResults records in path order over its own share (and that many
      // of each file it took from another's), so the first that many overall are here.
      const recorded = matchesOf(syntax.root, answer).slice(offset, offset + maxResults);
      const capped = { items: recorded, shown: recorded.length, note: pageNote(offset, recorded.length, total) };
      const filesMatched = answer.outcomes.filter((o) => o.count > 0).length;
      const notes = [...skippedNotes(syntax.root, answer, syntax.fallbackReason), ...everyFileParsedNote(answer.pattern)];
      const summary =
        total === 0
          ? answer.pattern
            ? `No match for the ${answer.language} ${describeQuery(answer.pattern)} in ${answer.filesSearched} file(s).`
            : "No file with a known grammar to search here."
          : `${total} match(es) in ${filesMatched} file(s) of ${answer.filesSearched} searched${capped.note ? ` (${capped.note})` : ""}.`;
      const text = [summary, ...capped.items.map(formatMatch), ...notes.map((n) => `note: ${n}`)].join("\n");
      return {
        text,
        data: {
          language: answer.language,
          context: answer.pattern?.context ?? "",
          matches: capped.items,
          total,
          shown: capped.shown,
          files_searched: answer.filesSearched,
          files_matched: filesMatched,
          notes,
        },
      };
    },
  });
}
