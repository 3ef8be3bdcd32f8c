// The live resources of one run, each present only when the harness passed it in: what the tool
// catalog registers tools for, and what the run connects (run/connect.ts).
import type { DebugSupervisor } from "../dap/supervisor.ts";
import type { KernelFactory } from "../kernel/factory.ts";
import type { LanguageServices } from "../lsp/service.ts";
import type { QuestionService } from "../questions/connect.ts";
import type { SyntaxService } from "../syntax/service.ts";
import type { WorkerRoster } from "../workers/roster.ts";

export interface RunResources {
  workdir: string;
  conversation: string | undefined;
  /** The tree-sitter parser resource: search, staged rewrites, the after-write hooks. */
  syntax?: SyntaxService;
  /** The language-server supervisor resource, with the run's diagnostic ledger. */
  languageServers?: LanguageServices;
  /** The debug-session supervisor resource. */
  debug?: DebugSupervisor;
  /** The question port resource (ask_user, permission prompts, the operator page). */
  questions?: QuestionService;
  /** The kernel factory resource (eval). */
  kernels?: KernelFactory;
  /** The worker roster resource (vibe_*). */
  workers?: WorkerRoster;
}
