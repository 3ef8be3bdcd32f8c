// ast_edit: stages a structural rewrite and shows its diff; nothing is written (write tier).
import * as v from "valibot";
import { capList, capText } from "../tool/budget.ts";
import { defineTool } from "../tool/define.ts";
import { ToolFailure } from "../answer/failure.ts";
import { unboundInTemplate } from "../syntax/rewrite.ts";
import type { SyntaxService } from "../syntax/service.ts";
import { contentHash, type StagedFile } from "../syntax/staged-edits.ts";
import { unifiedDiff } from "../syntax/unified-diff.ts";
import { relativeToWorkdir } from "../workspace/paths.ts";
import { shownPath } from "../workspace/shown-path.ts";
import description from "./ast-edit.txt" with { type: "text" };
import { everyFileParsedNote, languageArg, onePatternOrRule, pathArg, patternArg, ruleArg, ruleDescription, ruleOf, skippedNotes } from "./ast-grep-shared.ts";

/** Diffs of at most this many files are shown, within this many bytes; the edit itself is never cut. */
const DIFF_FILES_SHOWN = 20;
const DIFF_BYTES = 24_000;

export function astEditTool(syntax: SyntaxService) {
  return defineTool({
    name: "ast_edit",
    title: "Structural rewrite (staged)",
    tier: "write",
    description,
    input: v.pipe(
      v.strictObject({
        pattern: patternArg,
        rule: v.pipe(ruleArg, v.description(`${ruleDescription} Here also \`transform\` (new metavariables for the rewrite) and \`fix\` (the rewrite, when rewrite is not given).`)),
        rewrite: v.optional(v.pipe(v.string("expected replacement code"), v.maxLength(100_000), v.description("Replacement code; $NAME inserts a capture. Needed with pattern; with rule, the config's fix serves when it is absent."))),
        path: pathArg,
        language: languageArg,
      }),
      onePatternOrRule(),
    ),
    output: v.object({
      edit_id: v.optional(v.string()),
      replacements: v.number(),
      files: v.array(v.object({ path: v.string(), replacements: v.number() })),
      diff: v.string(),
      notes: v.array(v.string()),
    }),
    async run(input, ctx) {
      const rule = await ruleOf(input.rule, true);
      if (input.rewrite !== undefined && rule?.fix !== undefined && input.rewrite !== rule.fix) {
        throw new ToolFailure("Both rewrite and the rule config's fix are given, and they differ. Give the rewrite template once.", { code: "invalid_arguments" });
      }
      const rewrite = input.rewrite ?? rule?.fix;
      if (rewrite === undefined) {
        throw new ToolFailure("ast_edit needs the replacement: pass rewrite (or, with a rule, its fix).", { code: "invalid_arguments" });
      }
      const answer = await syntax.search({ pattern: input.pattern ?? "", rule, path: input.path, language: input.language, rewrite, signal: ctx.signal, progress: ctx.progress });
      const bound = answer.pattern?.metavariables ?? [];
      const unbound = answer.pattern ? unboundInTemplate(rewrite, bound) : [];
      if (unbound.length > 0) {
        throw new ToolFailure(
          `The rewrite uses ${unbound.map((n) => `$${n}`).join(", ")}, which the pattern does not capture ` +
            `(it captures ${bound.map((n) => `$${n}`).join(", ") || "nothing"}). Use only the pattern's metavariables.`,
          { code: "invalid_pattern" },
        );
      }
      const notes = [...skippedNotes(syntax.root, answer, syntax.fallbackReason), ...everyFileParsedNote(answer.pattern)];
      for (const outcome of answer.outcomes) {
        const words = outcome.rewrite?.overwritten ?? [];
        if (words.length === 0) continue;
        notes.push(
          `${shownPath(relativeToWorkdir(syntax.root, outcome.path))}: the rewrite replaces ${capList(words, 5).items.join(", ")}${words.length > 5 ? ` and ${words.length - 5} more` : ""}, ` +
            "which the pattern does not mention (matching skips such keywords, as ast-grep does); check the diff, and name them in the pattern and the rewrite to keep them",
        );
      }
      const changed = answer.outcomes.filter((o) => o.rewrite && o.rewrite.updated !== o.rewrite.original);
      if (changed.length === 0) {
        const why = answer.outcomes.some((o) => o.count > 0 && !o.rewrite)
          ? "the files that match cannot be rewritten (see the notes)"
          : answer.outcomes.some((o) => o.count > 0)
            ? "every match already reads as the rewrite"
            : "no code matches the pattern";
        const text = [`Nothing staged: ${why} (${answer.filesSearched} ${answer.language} file(s) searched).`, ...notes.map((n) => `note: ${n}`)].join("\n");
        return { text, data: { replacements: 0, files: [], diff: "", notes } };
      }
      const staged: StagedFile[] = changed.map((o) => ({
        path: o.path,
        rel: relativeToWorkdir(syntax.root, o.path),
        hash: contentHash(o.rewrite!.original),
        updated: o.rewrite!.updated,
        replacements: o.rewrite!.replacements.length,
      }));
      const id = syntax.edits.stage(staged, ctx.surface);
      const total = staged.reduce((n, f) => n + f.replacements, 0);
      const shownFiles = capList(changed, DIFF_FILES_SHOWN);
      const diff = capText(shownFiles.items.map((o) => unifiedDiff(shownPath(relativeToWorkdir(syntax.root, o.path)), o.rewrite!.original, o.rewrite!.replacements)).join("\n"), DIFF_BYTES);
      const header =
        `(proposed) ${total} replacement(s) in ${staged.length} file(s); nothing is written yet. ` +
        `Call resolve with edit_id "${id}" and action "accept" to write, or "discard".` +
        (shownFiles.note ? ` Diff: ${shownFiles.note} files.` : "");
      return {
        text: [header, diff.text, ...notes.map((n) => `note: ${n}`)].join("\n"),
        data: { edit_id: id, replacements: total, files: staged.map((f) => ({ path: f.rel, replacements: f.replacements })), diff: diff.text, notes },
      };
    },
  });
}
