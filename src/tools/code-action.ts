// code_action: stages what one of the language server's code actions would change; resolve writes it (write tier).
import * as v from "valibot";
import { codeActionEffect } from "../lsp/code-action-edit.ts";
import type { LanguageServices } from "../lsp/service.ts";
import type { SyntaxService } from "../syntax/service.ts";
import { contentHash } from "../syntax/staged-edits.ts";
import { unifiedDiff } from "../syntax/unified-diff.ts";
import { capText } from "../tool/budget.ts";
import { defineTool, type Tool } from "../tool/define.ts";
import { relativeToWorkdir } from "../workspace/paths.ts";
import { shownPath } from "../workspace/shown-path.ts";
import { fileArg, lineArg, namePathArg, symbolArg } from "./address-args.ts";
import description from "./code-action.txt" with { type: "text" };

const DIFF_BYTES = 24_000;

const input = v.strictObject({
  file: fileArg("Workspace-relative path of the file the action is asked for (as with lsp code_actions)."),
  line: v.optional(lineArg("1-based line of the symbol the action is asked at; or pass name_path instead.")),
  symbol: v.optional(symbolArg("The identifier as written on line, as lsp code_actions took it; name#2 for its second occurrence.")),
  name_path: v.optional(namePathArg),
  action: v.pipe(
    v.union([v.pipe(v.number(), v.integer(), v.minValue(1)), v.pipe(v.string(), v.minLength(1))], "expected the action's number or its exact title from lsp code_actions"),
    v.description("Which action: its number in lsp code_actions' list for the same place (1, 2, …), or its exact title."),
  ),
});

const output = v.object({
  edit_id: v.optional(v.string()),
  title: v.string(),
  command: v.optional(v.string()),
  files: v.array(v.string()),
  diff: v.string(),
});

/** Needs both resources: the action comes from the language server, the stage from the parser's. */
export function codeActionTool(services: LanguageServices, syntax: SyntaxService): Tool {
  return defineTool({
    name: "code_action",
    title: "Apply a language server's code action (staged)",
    tier: "write",
    description,
    input,
    output,
    async run(args, ctx) {
      const effect = await codeActionEffect(services.supervisor, args, args.action, ctx.signal);
      const files = effect.changes.map((c) => relativeToWorkdir(syntax.root, c.path));
      const data = { title: effect.title, ...(effect.command ? { command: effect.command } : {}), files };
      if (effect.changes.length === 0) {
        const why = effect.command ? `it ran the server's command ${effect.command}, which sent no edit` : "it carries no edit";
        return { text: `Nothing staged: the action "${effect.title}" changes no file (${why}).`, data: { ...data, diff: "" } };
      }
      const id = syntax.edits.stage(
        effect.changes.map((c, i) => ({ path: c.path, rel: files[i]!, hash: contentHash(c.original), updated: c.updated, replacements: 1 })),
        ctx.surface,
        "code_action",
      );
      const diff = capText(effect.changes.map((c, i) => unifiedDiff(shownPath(files[i]!), c.original, [wholeChange(c.original, c.updated)])).join("\n"), DIFF_BYTES).text;
      const header = `(proposed) "${effect.title}" changes ${files.length} file(s); nothing is written yet. Call resolve with edit_id "${id}" and action "accept" to write, or "discard".`;
      return { text: `${header}\n${diff}`, data: { ...data, edit_id: id, diff } };
    },
  });
}

/** The one span two texts differ in, whole lines: what the diff shows. */
function wholeChange(original: string, updated: string): { start: number; end: number; text: string } {
  let start = 0;
  while (start < original.length && start < updated.length && original[start] === updated[start]) start++;
  let tail = 0;
  while (tail < original.length - start && tail < updated.length - start && original[original.length - 1 - tail] === updated[updated.length - 1 - tail]) tail++;
  return { start, end: original.length - tail, text: updated.slice(start, updated.length - tail) };
}
