// The language-server resource of one run: the supervisor, the workdir watcher and what the checkout held when the run began.
import type { LanguageServerSettings } from "../config/resources/language-servers.ts";
import { programTrust } from "../platform/executables.ts";
import { diagnosticsAfterWrite } from "./after-write.ts";
import { CheckoutRecord } from "./checkout.ts";
import { DiagnosticLedger } from "./ledger.ts";
import { OutsideChanges } from "./outside-changes.ts";
import { LanguageServerSupervisor, type SupervisorOptions } from "./supervisor.ts";
import { WorkdirWatcher } from "./workdir-watch.ts";
import type { WriteOutcome } from "./write-check.ts";
import { describeWriteOutcome } from "./write-report.ts";

interface LanguageServiceOptions extends SupervisorOptions {
  /** Folders inside the workdir that are never watched (the run's state dir). */
  ignored?: readonly string[];
}

export class LanguageServices {
  readonly supervisor: LanguageServerSupervisor;
  readonly watcher: WorkdirWatcher;
  /** What each file held when the run began: a first write of a file is compared with it. */
  readonly checkout: CheckoutRecord;
  readonly outside: OutsideChanges;
  /** What the agent has been told of after its writes and not yet seen fixed (the run console shows it). */
  readonly ledger = new DiagnosticLedger();

  constructor(workdir: string, settings: LanguageServerSettings = {}, options: LanguageServiceOptions = {}) {
    const { ignored, ...supervisorOptions } = options;
    this.supervisor = new LanguageServerSupervisor(workdir, settings, supervisorOptions);
    this.watcher = new WorkdirWatcher(this.supervisor.workdir, ignored);
    this.supervisor.watch = this.watcher;
    this.outside = new OutsideChanges(this.supervisor);
    this.watcher.onChange((changes) => this.outside.apply(changes));
    this.checkout = new CheckoutRecord(this.supervisor.workdir, programTrust(this.supervisor.trust, this.supervisor.workdir));
    // git lists what differs from its index at once: a file the agent writes before that ran would
    // count as changed before the run, its text then unknown. The walk comes after the ready line.
    this.checkout.start();
    setTimeout(() => void this.watcher.start(), 0).unref?.();
  }

  get workdir(): string {
    return this.supervisor.workdir;
  }

  /** The diagnostics-on-write path: what the harness's write wrappers, lsp_rename and resolve call. */
  afterWrite(paths: readonly string[], signal?: AbortSignal): Promise<WriteOutcome> {
    return diagnosticsAfterWrite(this, paths, signal);
  }

  /** The note `resolve` folds into its answer: always says whether the write was checked and what it found. */
  async noteAfterWrite(paths: readonly string[]): Promise<string> {
    return describeWriteOutcome(await this.afterWrite(paths), { always: true });
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
