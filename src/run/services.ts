// The live resources of one run, each present only when the harness passed it in.
import type { LanguageServices } from "../lsp/service.ts";
import type { GrammarLoader } from "../syntax/grammars.ts";

export interface RunServices {
  workdir: string;
  conversation: string | undefined;
  /** The tree-sitter parser resource. */
  grammars?: GrammarLoader;
  /** The language-server supervisor resource, with the run's diagnostic ledger. */
  languageServers?: LanguageServices;
}
