// The `lsp_rename` tool: a project-wide rename checked before it is written, then written atomically (write tier).
import * as v from "valibot";
import { renameSymbol } from "../lsp/rename.ts";
import type { LanguageServices } from "../lsp/service.ts";
import { describeWriteOutcome } from "../lsp/write-report.ts";
import { defineTool, type Tool } from "../tool/define.ts";
import { fileArg, lineArg, namePathArg, symbolArg } from "./address-args.ts";
import description from "./lsp-rename.txt" with { type: "text" };
import { shownPath } from "../workspace/shown-path.ts";

const input = v.strictObject({
  file: v.optional(fileArg("Workspace-relative path of a file where the symbol is written (its declaration or any use); with name_path, the file whose outline holds it (without it, the workspace is searched).")),
  line: v.optional(lineArg("1-based line of file on which symbol is written; or pass name_path instead.")),
  symbol: v.optional(symbolArg("The symbol's name as written on line, never a column; name#2 for its second occurrence on that line.")),
  name_path: v.optional(namePathArg),
  new_name: v.pipe(
    v.string("expected the new name"),
    v.description("The new name: an identifier of the file's language (not a keyword); a name the rename would make collide is refused."),
    // The shape every language shares; which names a language takes (keywords, $) renameSymbol checks.
    v.regex(/^#?[\p{L}_$][\p{L}\p{N}_$]*$/u, "expected an identifier: letters, digits and _, not starting with a digit"),
  ),
  force: v.optional(v.pipe(v.boolean("expected true or false"), v.description("true: write the rename even when checking it through the server found errors it would bring (they are listed)."))),
});

const row = v.record(v.string(), v.unknown());
const output = v.object({
  files: v.array(v.string()),
  edits: v.number(),
  diagnostics: v.object({
    status: v.picklist(["fresh", "timed_out", "unsupported"]),
    new: v.array(row),
    fixed: v.number(),
    already: v.number(),
  }),
});

export function lspRenameTool(services: LanguageServices): Tool {
  return defineTool({
    name: "lsp_rename",
    tier: "write",
    title: "Project-wide rename",
    description,
    input,
    output,
    async run(args, ctx) {
      const outcome = await renameSymbol(services.supervisor, args, ctx.signal);
      const summary = `Renamed ${outcome.renamed} to ${args.new_name}: ${outcome.edits} edit(s) in ${outcome.files.length} file(s): ${outcome.files.map(shownPath).join(", ")}.`;
      const { diagnostics } = outcome;
      return {
        text: [summary, describeWriteOutcome(diagnostics, { always: true }), ...outcome.notes].join("\n").trimEnd(),
        data: {
          files: outcome.files,
          edits: outcome.edits,
          diagnostics: {
            status: diagnostics.status,
            new: diagnostics.new.map((d) => ({ ...d })),
            fixed: diagnostics.files.reduce((n, f) => n + f.fixed, 0),
            already: diagnostics.files.reduce((n, f) => n + f.already, 0),
          },
        },
        written: outcome.files,
      };
    },
  });
}
