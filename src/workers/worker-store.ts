// Worker state on disk, in the run's state directory: one folder per worker, one per generation.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { WorkerRecord } from "./worker-record.ts";

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

  constructor(stateDir: string | undefined) {
    this.temporary = stateDir === undefined;
    const base = stateDir ?? mkdtempSync(join(tmpdir(), "sidecar-state-"));
    this.root = join(base, "workers");
    mkdirSync(this.root, { recursive: true });
  }

  workerDir(id: string): string {
    return join(this.root, id);
  }

  worktreeDir(id: string): string {
    return join(this.workerDir(id), "worktree");
  }

  /** The generation's files, its folder created. */
  generationFiles(id: string, generation: number): GenerationFiles {
    const files = this.filesOf(id, generation);
    mkdirSync(files.dir, { recursive: true });
    return files;
  }

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

  save(record: WorkerRecord): void {
    const dir = this.workerDir(record.id);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "state.json");
    writeFileSync(`${file}.tmp`, `${JSON.stringify(record, null, 2)}\n`);
    renameSync(`${file}.tmp`, file);
  }

  /** Every worker a previous sidecar of this run left behind; unreadable folders are skipped. */
  loadAll(): WorkerRecord[] {
    const records: WorkerRecord[] = [];
    for (const entry of readdirSync(this.root, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      try {
        const record = JSON.parse(readFileSync(join(this.root, entry.name, "state.json"), "utf8")) as WorkerRecord;
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
