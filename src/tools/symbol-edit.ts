// symbol_edit: rewrites, inserts beside or deletes a definition named by its name path, staged like ast_edit (write tier).
import * as v from "valibot";
import { ToolFailure } from "../answer/failure.ts";
import { definitionAt } from "../lsp/addressing.ts";
import { shownNamePath } from "../lsp/name-path.ts";
import type { LanguageServices } from "../lsp/service.ts";
import { grammarForPath } from "../syntax/grammars.ts";
import type { SyntaxService } from "../syntax/service.ts";
import { contentHash } from "../syntax/staged-edits.ts";
import { syntaxErrors, type SyntaxError } from "../syntax/syntax-errors.ts";
import { unifiedDiff } from "../syntax/unified-diff.ts";
import { capText } from "../tool/budget.ts";
import { defineTool, type Tool } from "../tool/define.ts";
import { readFileInsideAsync, relativeToWorkdir } from "../workspace/paths.ts";
import { shownPath } from "../workspace/shown-path.ts";
import { fileArg, lineArg, namePathArg, symbolArg } from "./address-args.ts";
import { planSymbolEdit } from "./symbol-edit-plan.ts";
import { OPERATIONS } from "./symbol-edit-text.ts";
import description from "./symbol-edit.txt" with { type: "text" };

const DIFF_BYTES = 24_000;
/** Syntax errors a refusal lists. */
const ERRORS_LISTED = 5;

const input = v.strictObject({
  file: v.optional(fileArg("Workspace-relative path of the file that holds the definition; without it (and with name_path), the workspace symbol search finds it.")),
  name_path: v.optional(namePathArg),
  line: v.optional(lineArg("With symbol, instead of name_path: the 1-based line where the definition's name (or a use of it) is written.")),
  symbol: v.optional(symbolArg("With line: the definition's name as written on that line; name#2 for its second occurrence.")),
  operation: v.pipe(
    v.picklist(OPERATIONS, `expected one of ${OPERATIONS.join(", ")}`),
    v.description("replace: the whole definition (doc comment and decorators included); replace_body: what is inside its body, signature kept; insert_before / insert_after: new code beside it; delete: remove it."),
  ),
  text: v.optional(
    v.pipe(
      v.string("expected code"),
      v.maxLength(100_000, "text is at most 100000 characters"),
      v.description("The code to put in (not with delete). Indentation is redone to the definition's place in the file's own unit; for replace_body, the body's statements without the braces."),
    ),
  ),
});

const output = v.object({
  edit_id: v.optional(v.string()),
  path: v.string(),
  name_path: v.string(),
  operation: v.string(),
  diff: v.string(),
});

/** symbol_edit needs both resources: the outline comes from the language server, the stage and the parse check from the parser. */
export function symbolEditTool(services: LanguageServices, syntax: SyntaxService): Tool {
  return defineTool({
    name: "symbol_edit",
    title: "Edit a definition by name (staged)",
    tier: "write",
    description,
    input,
    output,
    async run(args, ctx) {
      if (args.operation !== "delete" && !args.text?.trim()) {
        throw new ToolFailure(`${args.operation} needs text: the code to put in, e.g. {"name_path": "Parser/run", "operation": "${args.operation}", "text": "..."}.`, { code: "invalid_arguments" });
      }
      if (args.operation === "delete" && args.text !== undefined) throw new ToolFailure("delete takes no text: it removes the definition.", { code: "invalid_arguments" });
      const found = await definitionAt(services.supervisor, args, "symbol_edit", ctx.signal);
      const rel = relativeToWorkdir(syntax.root, found.path);
      const original = (await readFileInsideAsync(syntax.root, found.path)).toString("utf8");
      if (original !== found.document.text) {
        throw new ToolFailure(`${shownPath(rel)} changed while its outline was read; call symbol_edit again.`, { code: "file_changed" });
      }
      const language = grammarForPath(found.path);
      const parser = language ? await syntax.parser(language) : undefined;
      const replacement = planSymbolEdit({
        operation: args.operation,
        text: args.text ?? "",
        original,
        path: found.path,
        definition: found.definition,
        siblings: found.definition.parent?.children ?? found.definitions,
        parser,
      });
      const updated = original.slice(0, replacement.start) + replacement.text + original.slice(replacement.end);
      const namePath = shownNamePath(found.definition);
      const data = { path: rel, name_path: namePath, operation: args.operation };
      if (updated === original) return { text: `Nothing staged: ${shownPath(rel)} already reads so.`, data: { ...data, diff: "" } };
      const notes: string[] = [];
      if (parser) refuseNewSyntaxErrors(syntaxErrors(parser, original), syntaxErrors(parser, updated), rel, namePath);
      else notes.push(`note: no grammar is known for ${shownPath(rel)}, so the result was not checked to parse`);
      const id = syntax.edits.stage([{ path: found.path, rel, hash: contentHash(original), updated, replacements: 1 }], ctx.surface, "symbol_edit");
      const diff = capText(unifiedDiff(shownPath(rel), original, [replacement]), DIFF_BYTES).text;
      const header = `(proposed) ${args.operation} of ${found.definition.kind} ${namePath} in ${shownPath(rel)}; nothing is written yet. Call resolve with edit_id "${id}" and action "accept" to write, or "discard".`;
      return { text: [header, diff, ...notes].join("\n"), data: { ...data, edit_id: id, diff } };
    },
  });
}

/** The edit is refused when its result has more syntax errors than the file had: where it breaks is named. */
function refuseNewSyntaxErrors(before: readonly SyntaxError[], after: readonly SyntaxError[], rel: string, namePath: string): void {
  if (after.length <= before.length) return;
  const known = new Set(before.map((e) => e.what));
  const fresh = after.filter((e) => !known.has(e.what));
  const shown = (fresh.length ? fresh : after).slice(0, ERRORS_LISTED).map((e) => `line ${e.line}, column ${e.column}: ${e.what}`);
  const had = before.length ? ` (the file had ${before.length} already; it would have ${after.length})` : "";
  throw new ToolFailure(
    `Nothing staged: the edit of ${namePath} would leave ${shownPath(rel)} with syntax errors it did not have${had}: ${shown.join("; ")}. Check the text's brackets and indentation, and call symbol_edit again.`,
    { code: "syntax_error", errors: shown },
  );
}
