// Worker state on disk, in the run's state directory: one folder per worker, one per generation.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../config/load.ts";
import type { WorkerRecord } from "./worker-record.ts";
import { readRegularFileSync } from "../workspace/regular-file.ts";

export interface GenerationFiles {
  dir: string;
  brief: string;
  result: string;
  stdout: string;
  stderr: string;
}

/**
 * Layout: `<stateDir>/workers/<id>/state.json`, `<id>/gen-<n>/{brief.md,result.md,stdout.log,
 * stderr.log}` and `<id>/worktree` for isolated workers. Writes are atomic (temp file + rename),
 * so a crash never leaves half a state file.
 */
export class WorkerStore {
  readonly root: string;
  /** True when no state directory was configured and this store made a temporary one. */
  readonly temporary: boolean;
  private saveFailed = false;

  constructor(stateDir: string | undefined) {
    this.temporary = stateDir === undefined;
    const base = stateDir ?? mkdtempSync(join(tmpdir(), "sidecar-state-"));
    this.root = join(base, "workers");
    try {
      mkdirSync(this.root, { recursive: true });
      // A stateDir inside the checkout (".sidecar/state") would show up in git status, and the
      // workers' worktrees in every search and rewrite of the workdir: a .gitignore hides it from both.
      const ignore = join(base, ".gitignore");
      if (!existsSync(ignore)) writeFileSync(ignore, "# sidecar's per-run state: never part of the checkout\n*\n");
    } catch (error) {
      throw new ConfigError(`stateDir: cannot create ${this.root} for worker state (${(error as Error).message}); set stateDir to a writable directory.`);
    }
  }

  workerDir(id: string): string {
    return join(this.root, id);
  }

  worktreeDir(id: string): string {
    return join(this.workerDir(id), "worktree");
  }

  /** Where a generation's files are; the worker process creates the folder when it starts. */
  filesOf(id: string, generation: number): GenerationFiles {
    const dir = join(this.workerDir(id), `gen-${generation}`);
    return {
      dir,
      brief: join(dir, "brief.md"),
      result: join(dir, "result.md"),
      stdout: join(dir, "stdout.log"),
      stderr: join(dir, "stderr.log"),
    };
  }

  /**
   * Never throws: a state directory that became unwritable (full disk, removed) must not take the
   * sidecar down; the record stays right in memory and the problem is logged once.
   */
  save(record: WorkerRecord): void {
    const file = join(this.workerDir(record.id), "state.json");
    try {
      mkdirSync(this.workerDir(record.id), { recursive: true });
      writeFileSync(`${file}.tmp`, `${JSON.stringify(record, null, 2)}\n`);
      renameSync(`${file}.tmp`, file);
    } catch (error) {
      if (!this.saveFailed) console.error(`sidecar: cannot save worker state to ${file}: ${(error as Error).message}; results are kept in memory only.`);
      this.saveFailed = true;
    }
  }

  /** Every worker a previous sidecar of this run left behind; unreadable folders are skipped. */
  loadAll(): WorkerRecord[] {
    const records: WorkerRecord[] = [];
    for (const entry of readdirSync(this.root, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      try {
        const record = JSON.parse(readRegularFileSync(join(this.root, entry.name, "state.json")).toString("utf8")) as WorkerRecord;
        if (record.id === entry.name && Array.isArray(record.history)) records.push(record);
      } catch {
        // a folder without a readable state file is not a worker of ours
      }
    }
    return records;
  }

  /** Removes the temporary state directory; a configured one is the harness's and stays. */
  removeIfTemporary(): void {
    if (this.temporary) rmSync(join(this.root, ".."), { recursive: true, force: true });
  }
}
