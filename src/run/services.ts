// The live resources of one run, each present only when the harness passed it in.
import type { DebugSupervisor } from "../dap/supervisor.ts";
import type { GrammarLoader } from "../syntax/grammars.ts";

export interface RunServices {
  workdir: string;
  conversation: string | undefined;
  /** The tree-sitter parser resource. */
  grammars?: GrammarLoader;
  /** The debug-session supervisor resource. */
  debug?: DebugSupervisor;
}
