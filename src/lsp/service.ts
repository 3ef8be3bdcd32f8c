// The language-server resource of one run: the supervisor, the run's DiagnosticLedger and the workdir watcher.
import type { LanguageServerSettings } from "../config/resources/language-servers.ts";
import { diagnosticsAfterWrite, type WriteOutcome } from "./after-write.ts";
import { DiagnosticLedger } from "./ledger.ts";
import { OutsideChanges } from "./outside-changes.ts";
import { LanguageServerSupervisor, type SupervisorOptions } from "./supervisor.ts";
import { WorkdirWatcher } from "./workdir-watch.ts";

export interface LanguageServiceOptions extends SupervisorOptions {
  /** Folders inside the workdir that are never watched (the run's state dir). */
  ignored?: readonly string[];
}

export class LanguageServices {
  readonly supervisor: LanguageServerSupervisor;
  /** One per run: what the agent has already been told, shared by writes, rename and resolve. */
  readonly ledger = new DiagnosticLedger();
  readonly watcher: WorkdirWatcher;
  private readonly outside: OutsideChanges;

  constructor(workdir: string, settings: LanguageServerSettings = {}, options: LanguageServiceOptions = {}) {
    const { ignored, ...supervisorOptions } = options;
    this.supervisor = new LanguageServerSupervisor(workdir, settings, supervisorOptions);
    this.watcher = new WorkdirWatcher(this.supervisor.workdir, ignored);
    this.supervisor.watch = this.watcher;
    this.outside = new OutsideChanges(this.supervisor);
    this.watcher.onChange((changes) => this.outside.apply(changes));
    // After the ready line: the walk is asynchronous, and nothing needs it before the first call.
    setTimeout(() => void this.watcher.start(), 0).unref?.();
  }

  get workdir(): string {
    return this.supervisor.workdir;
  }

  /** The diagnostics-on-write path: what the harness's write wrappers, lsp_rename and resolve call. */
  afterWrite(paths: readonly string[], signal?: AbortSignal): Promise<WriteOutcome> {
    return diagnosticsAfterWrite(this.supervisor, this.ledger, paths, signal);
  }

  /** One line for `lsp status`: what the watcher covers. */
  watchStatus(): string {
    const { watcher } = this;
    if (watcher.failure) return `workdir not watched (${watcher.failure}): changes made outside the sidecar reach the servers only when a file is opened`;
    if (watcher.unwatched) return `watching ${watcher.watching} folders of the workdir; ${watcher.unwatched} more left unwatched (over ${watcher.watching})`;
    return `watching ${watcher.watching} folder(s) of the workdir (dependencies, build output and dot-folders excepted)`;
  }

  async close(): Promise<void> {
    this.watcher.close();
    this.outside.close();
    await this.supervisor.close();
  }
}
