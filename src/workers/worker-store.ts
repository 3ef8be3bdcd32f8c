// Worker state on disk, in the run's state directory: one folder per worker, one per generation.
// A stateDir inside the checkout (".sidecar-state") is the checkout's to fill: a cloned repository can
// ship symlinks there (workers -> ~/somewhere, w1/state.json.tmp -> ~/.bashrc, w1/gen-1/result.md ->
// ~/.ssh/id_rsa, w1/worktree -> ~). So the stateDir must stay inside the workspace when it is there,
// every folder below it must be a real folder, every file is written with O_NOFOLLOW (a link there
// is refused, never written through), and a result or state file that is a link is not read.
import { closeSync, constants, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ConfigError } from "../config/load.ts";
import type { WorkerGrade } from "../config/resources/vibe.ts";
import type { WorkerRecord } from "./worker-record.ts";
import { leadsOutOfWorkdir } from "../workspace/paths.ts";
import { readRegularFileSync } from "../workspace/regular-file.ts";

/** Every file the store or a worker's run writes: created or truncated, never through a symlink. */
const STATE_FILE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;

/** Opens a state file for writing, refused when a symlink is there: its descriptor. */
export function openStateFile(path: string, exclusive = false): number {
  try {
    return openSync(path, STATE_FILE_FLAGS | (exclusive ? constants.O_EXCL : 0), 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") throw new Error(`${path} is a symlink, not a file the sidecar made (a checkout may have put it there); remove it`);
    throw error;
  }
}

/** Writes a whole state file, never through a symlink. */
export function writeStateFile(path: string, content: string, exclusive = false): void {
  const fd = openStateFile(path, exclusive);
  try {
    writeFileSync(fd, content);
  } finally {
    closeSync(fd);
  }
}

/** A folder below the state directory: made when missing, refused when anything else is there (a symlink above all). */
export function stateFolder(path: string): void {
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const info = lstatSync(path);
  if (!info.isDirectory()) {
    throw new Error(`${path} is ${info.isSymbolicLink() ? "a symlink" : "not a folder"}, not a folder the sidecar made (a checkout may have put it there); remove it`);
  }
}

/** True when `path` is a symlink: a result or state file the checkout planted, not one a worker wrote. */
export function isLink(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
}

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

  constructor(stateDir: string | undefined, workdir: string) {
    this.temporary = stateDir === undefined;
    const base = stateDir ?? mkdtempSync(join(tmpdir(), "sidecar-state-"));
    this.root = join(base, "workers");
    try {
      mkdirSync(base, { recursive: true });
      if (leadsOutOfWorkdir(workdir, resolve(workdir, base))) throw new Error(`${base} is inside the workspace but a symlink on the way leads out of it (a checkout may have put it there)`);
      stateFolder(this.root);
      // A stateDir inside the checkout (".sidecar/state") would show up in git status, and the
      // workers' worktrees in every search and rewrite of the workdir: a .gitignore hides it from both.
      // Exclusive create: an existing file, or a (dangling) symlink the checkout put there, is left alone.
      const ignore = join(base, ".gitignore");
      if (!existsSync(ignore) && !isLink(ignore)) writeFileSync(ignore, "# sidecar's per-run state: never part of the checkout\n*\n", { flag: "wx" });
    } catch (error) {
      throw new ConfigError(`stateDir: cannot use ${this.root} for worker state (${(error as Error).message}); set stateDir to a writable directory.`);
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
    const draft = `${file}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      stateFolder(this.workerDir(record.id));
      writeStateFile(draft, `${JSON.stringify(record, null, 2)}\n`, true);
      renameSync(draft, file); // replaces a link planted at state.json, never writes through it
    } catch (error) {
      rmSync(draft, { force: true });
      if (!this.saveFailed) console.error(`sidecar: cannot save worker state to ${file}: ${(error as Error).message}; results are kept in memory only.`);
      this.saveFailed = true;
    }
  }

  /** Every worker a previous sidecar of this run left behind; unreadable folders are skipped. */
  loadAll(): WorkerRecord[] {
    const records: WorkerRecord[] = [];
    for (const entry of readdirSync(this.root, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const file = join(this.root, entry.name, "state.json");
      if (isLink(file)) continue;
      try {
        const record = JSON.parse(readRegularFileSync(file).toString("utf8")) as WorkerRecord & { tier?: WorkerGrade };
        // A sidecar before the word "grade" saved it as `tier`.
        if (record.tier !== undefined) {
          record.grade ??= record.tier;
          delete record.tier;
        }
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
