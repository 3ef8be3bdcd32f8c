// The live resources of one run, each present only when the harness passed it in.
import type { GrammarLoader } from "../syntax/grammars.ts";
import type { WorkerRoster } from "../workers/roster.ts";

export interface RunServices {
  workdir: string;
  conversation: string | undefined;
  /** The tree-sitter parser resource. */
  grammars?: GrammarLoader;
  /** The worker roster resource (vibe_*). */
  workers?: WorkerRoster;
}
