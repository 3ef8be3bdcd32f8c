// The parser resource (config `parser`): tree-sitter search and staged rewrites, ast_grep, ast_edit, resolve (and symbol_edit, code_action with language servers).
import { connect } from "../../syntax/connect.ts";
import { grammarChecks } from "../../syntax/doctor.ts";
import type { SyntaxService } from "../../syntax/service.ts";
import type { LanguageServices } from "../../lsp/service.ts";
import { astEditTool } from "../../tools/ast-edit.ts";
import { astGrepTool } from "../../tools/ast-grep.ts";
import { codeActionTool } from "../../tools/code-action.ts";
import { resolveTool } from "../../tools/resolve.ts";
import { symbolEditTool } from "../../tools/symbol-edit.ts";
import { defineResource } from "./resource.ts";

export const syntax = defineResource({
  name: "syntax",
  configKey: "parser",
  settings: (resources) => resources.parser,
  connect,
  /**
   * `resolve accept` is a write like any other: when the run has language servers, the diagnostics
   * it caused are folded into its answer, through the same ledger as the harness's own writes.
   */
  join: (syntax: SyntaxService, { lsp }: { lsp?: LanguageServices }) => {
    if (lsp) syntax.writeHooks.add((paths) => lsp.noteAfterWrite(paths));
  },
  // symbol_edit and code_action need both: the outline from the language servers, the stage and parse check from the parser.
  tools: (syntax: SyntaxService, { lsp }: { lsp?: LanguageServices }) => [astGrepTool(syntax), astEditTool(syntax), resolveTool(syntax), ...(lsp ? [symbolEditTool(lsp, syntax), codeActionTool(lsp, syntax)] : [])],
  // The grammars are the binary's own: checked whatever the config connects.
  doctor: { label: "grammars", check: grammarChecks, always: true },
  // The agent's first search comes seconds after the ready line: by then its grammar is warm.
  serving: (syntax) => syntax.warmUp(),
  // Parse workers only ever collect: dropping their compiled matcher, the hot path of every
  // search, cost 7–18 % of throughput in the minute of load after it, for 8 points of RSS.
  reclaim: (syntax) => syntax.collectGarbage(),
});
