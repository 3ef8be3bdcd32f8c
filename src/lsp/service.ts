// The language-server resource of one run: the supervisor plus the run's DiagnosticLedger.
import type { LanguageServerSettings } from "../config/resources/language-servers.ts";
import { diagnosticsAfterWrite, type WriteOutcome } from "./after-write.ts";
import { DiagnosticLedger } from "./ledger.ts";
import { LanguageServerSupervisor, type SupervisorOptions } from "./supervisor.ts";

export class LanguageServices {
  readonly supervisor: LanguageServerSupervisor;
  /** One per run: what the agent has already been told, shared by writes, rename and resolve. */
  readonly ledger = new DiagnosticLedger();

  constructor(workdir: string, settings: LanguageServerSettings = {}, options: SupervisorOptions = {}) {
    this.supervisor = new LanguageServerSupervisor(workdir, settings, options);
  }

  get workdir(): string {
    return this.supervisor.workdir;
  }

  /** The diagnostics-on-write path: what the harness's write wrappers, lsp_rename and resolve call. */
  afterWrite(paths: readonly string[], signal?: AbortSignal): Promise<WriteOutcome> {
    return diagnosticsAfterWrite(this.supervisor, this.ledger, paths, signal);
  }

  close(): Promise<void> {
    return this.supervisor.close();
  }
}
