// resolve: accepts (writes atomically) or discards an edit staged by ast_edit, symbol_edit or code_action (write tier).
import * as v from "valibot";
import { defineTool } from "../tool/define.ts";
import type { SyntaxService } from "../syntax/service.ts";
import { shownPath } from "../workspace/shown-path.ts";
import description from "./resolve.txt" with { type: "text" };

export function resolveTool(syntax: SyntaxService) {
  return defineTool({
    name: "resolve",
    title: "Accept or discard a staged edit",
    tier: "write",
    description,
    input: v.strictObject({
      edit_id: v.pipe(v.string("expected an edit id such as \"edit_1\""), v.description("From the (proposed) answer of ast_edit, symbol_edit or code_action.")),
      action: v.pipe(
        v.picklist(["accept", "discard"], "expected \"accept\" or \"discard\""),
        v.description("accept writes every file of the edit (all or none; refused if one changed since it was staged); discard drops it, writing nothing."),
      ),
    }),
    output: v.object({
      edit_id: v.string(),
      action: v.string(),
      files: v.array(v.object({ path: v.string(), replacements: v.number() })),
      notes: v.array(v.string()),
    }),
    async run(input, ctx) {
      if (input.action === "discard") {
        syntax.edits.discard(input.edit_id, ctx.surface);
        return { text: `Discarded ${input.edit_id}; no file was changed.`, data: { edit_id: input.edit_id, action: "discard", files: [], notes: [] } };
      }
      const accepted = await syntax.edits.accept(input.edit_id, ctx.surface, (paths) => syntax.afterWrite(paths));
      const files = accepted.files.map((f) => ({ path: f.rel, replacements: f.replacements }));
      const text = [
        `Accepted ${input.edit_id}: wrote ${files.length} file(s).`,
        ...files.map((f) => `  ${shownPath(f.path)} (${f.replacements} replacement(s))`),
        ...accepted.notes,
      ].join("\n");
      return { text, data: { edit_id: input.edit_id, action: "accept", files, notes: accepted.notes }, written: files.map((f) => f.path) };
    },
  });
}
