// One generation of a worker: its process group started with the brief, watched, bounded and stopped.
import type { ChildProcess } from "node:child_process";
import { closeSync, createWriteStream, existsSync, rmSync, type WriteStream } from "node:fs";
import { dirname } from "node:path";
import { capText } from "../tool/budget.ts";
import { killRemains, signalGroup, spawnGroup, stopGroup } from "../process/group.ts";
import { findExecutable, trustedEnv, type ProgramTrust } from "../platform/executables.ts";
import { groupAlive } from "../platform/group-alive.ts";
import { readRegularFileEndsSync } from "../workspace/regular-file.ts";
import { OutputTail } from "./output-tail.ts";
import { isLink, openStateFile, stateFolder, writeStateFile, type GenerationFiles } from "./worker-store.ts";
import type { FinalState, GenerationOutcome, StartedBy } from "./worker-record.ts";

/** Without a result file, this much of the end of stdout is the result (the worker contract). */
const STDOUT_RESULT_BYTES = 4 * 1024;
/** stderr kept for a failure's explanation. */
const STDERR_TAIL_BYTES = 2 * 1024;
/** A result file longer than this is kept in full on disk but cut (head and tail) in the record. */
const RESULT_KEEP_BYTES = 16 * 1024;
/**
 * After the worker's main process exits, how long what it left in its group gets to finish writing
 * before it is killed: a finished worker owns nothing that keeps running.
 */
const LEFTOVER_GRACE_MS = 2_000;

/** How often the leftover group is checked during its grace. */
const LEFTOVER_POLL_MS = 50;
/** Bound on reading the rest of a finished worker's output once its group is gone. */
const OUTPUT_DRAIN_MS = 2_000;

interface WorkerLaunch {
  workerId: string;
  generation: number;
  grade: string;
  /** The surface that started this run; undefined (an old record) tells the worker it has no tiers. */
  startedBy: StartedBy | undefined;
  argv: readonly string[];
  /** Which program argv[0] may be: untrusted, none the checkout put on PATH (platform/executables.ts). */
  trust: ProgramTrust;
  env: Record<string, string>;
  /** Resolves to the directory to run in (a worktree may have to be made first). */
  cwd: () => Promise<string>;
  brief: string;
  files: GenerationFiles;
  timeLimitMs: number;
}

type Stop = { state: Extract<FinalState, "killed" | "timed_out">; note: string };

/** The running generation; `finished` always resolves, never rejects. */
export class WorkerProcess {
  readonly finished: Promise<Omit<GenerationOutcome, "generation" | "startedAt">>;
  private readonly stdout = new OutputTail(STDOUT_RESULT_BYTES);
  private readonly stderr = new OutputTail(STDERR_TAIL_BYTES);
  private child: ChildProcess | undefined;
  private stopRequest: Stop | undefined;
  private readonly lineListeners = new Set<(line: string) => void>();

  constructor(private readonly launch: WorkerLaunch) {
    this.finished = this.run();
  }

  /** The last non-blank line on stdout or stderr, whichever came last. */
  lastLine: string | undefined;

  onLine(listener: (line: string) => void): void {
    this.lineListeners.add(listener);
  }

  /** Stops the whole group (SIGTERM, grace, SIGKILL) and resolves once the generation has ended. */
  async stop(state: Stop["state"], note: string): Promise<void> {
    this.stopRequest ??= { state, note };
    if (this.child) await stopGroup(this.child);
    await this.finished;
  }

  private async run(): Promise<Omit<GenerationOutcome, "generation" | "startedAt">> {
    const { launch } = this;
    let cwd: string;
    try {
      cwd = await launch.cwd();
    } catch (error) {
      return this.outcome("failed", null, null, `could not prepare its working directory: ${(error as Error).message}`);
    }
    const early = this.requestedStop();
    if (early) return this.outcome(early.state, null, null, early.note);
    const logFds: number[] = [];
    try {
      stateFolder(dirname(launch.files.dir));
      stateFolder(launch.files.dir);
      // A result file there before the worker starts is not its result: one left by a sidecar that
      // stopped mid-generation, or a link a checkout planted for the worker to write through.
      rmSync(launch.files.result, { force: true });
      writeStateFile(launch.files.brief, launch.brief);
      for (const log of [launch.files.stdout, launch.files.stderr]) logFds.push(openStateFile(log));
    } catch (error) {
      for (const fd of logFds) closeSync(fd);
      return this.outcome("failed", null, null, `could not write its brief and logs into the state directory: ${(error as Error).message}`);
    }
    const [program, ...args] = launch.argv;
    const found = findExecutable(program!, { trust: launch.trust });
    if (!found) {
      for (const fd of logFds) closeSync(fd);
      const where = launch.trust.workspace ? "" : " outside the workspace, which is not trusted";
      return this.outcome("failed", null, null, `could not start ${JSON.stringify(program)} (no such program on PATH${where}); the harness must fix the vibe roster's command`);
    }
    let child: ChildProcess;
    try {
      child = spawnGroup(found, args, {
        cwd,
        env: {
          ...trustedEnv(process.env, launch.trust),
          ...launch.env,
          SIDECAR_WORKER_ID: launch.workerId,
          SIDECAR_WORKER_GENERATION: String(launch.generation),
          SIDECAR_WORKER_TIER: launch.grade,
          SIDECAR_WORKER_SURFACE: launch.startedBy?.surface ?? "",
          SIDECAR_WORKER_TIERS: launch.startedBy?.tiers.join(",") ?? "",
          SIDECAR_BRIEF_FILE: launch.files.brief,
          SIDECAR_RESULT_FILE: launch.files.result,
        },
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (error) {
      for (const fd of logFds) closeSync(fd);
      return this.outcome("failed", null, null, cannotStart(program!, error as Error));
    }
    this.child = child;
    // Listened for at once: "close" can come in the same tick as "exit", before anyone awaits it.
    const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
    const logs = [createWriteStream(launch.files.stdout, { fd: logFds[0] }), createWriteStream(launch.files.stderr, { fd: logFds[1] })] as const;
    for (const log of logs) log.on("error", () => {}); // a full disk loses the log, not the worker or the sidecar
    child.stdin?.on("error", () => {}); // a worker that never reads its stdin is fine
    child.stdin?.end(launch.brief);
    this.follow(child.stdout, this.stdout, logs[0]);
    this.follow(child.stderr, this.stderr, logs[1]);

    const timer = setTimeout(() => {
      void this.stop("timed_out", `the time limit of ${formatSeconds(launch.timeLimitMs)} was reached`);
    }, launch.timeLimitMs);
    const ended = await new Promise<{ code: number | null; signal: string | null } | Error>((resolve) => {
      child.once("error", (error) => resolve(error));
      child.once("exit", (code, signal) => resolve({ code, signal }));
    });
    clearTimeout(timer);
    if (!(ended instanceof Error)) await this.reapLeftovers(child, closed);
    // Bounded: a log stream that failed (full disk) may never report its end.
    await Promise.race([Promise.all(logs.map((log) => new Promise((resolve) => log.end(resolve)))), sleep(OUTPUT_DRAIN_MS)]);

    if (ended instanceof Error) return this.outcome("failed", null, null, cannotStart(program!, ended));
    const stop = this.requestedStop();
    if (stop) return this.outcome(stop.state, ended.code, ended.signal, stop.note);
    if (ended.code === 0) return this.outcome("done", 0, null);
    const how = ended.code !== null ? `exit code ${ended.code}` : `signal ${ended.signal}`;
    return this.outcome("failed", ended.code, ended.signal, `the worker ended with ${how}`);
  }

  /** Read through a method: stop() sets it while run() awaits, which narrowing cannot see. */
  private requestedStop(): Stop | undefined {
    return this.stopRequest;
  }

  private follow(stream: NodeJS.ReadableStream | null, tail: OutputTail, log: WriteStream): void {
    stream?.on("data", (chunk: Buffer) => {
      tail.push(chunk);
      log.write(chunk);
      const line = tail.lastLine();
      if (line !== undefined && line !== this.lastLine) {
        this.lastLine = line;
        for (const listener of this.lineListeners) listener(line);
      }
    });
  }

  /**
   * The main process exited: SIGTERM what is left of its group, SIGKILL what is still there after
   * the grace, then read its output to the end (bounded: a pipe held open elsewhere is cut).
   */
  private async reapLeftovers(child: ChildProcess, closed: Promise<void>): Promise<void> {
    if (groupExists(child)) {
      signalGroup(child, "SIGTERM");
      const deadline = Date.now() + LEFTOVER_GRACE_MS;
      while (groupExists(child) && Date.now() < deadline) await sleep(LEFTOVER_POLL_MS);
    }
    await killRemains(child);
    const drained = await Promise.race([closed.then(() => true), sleep(OUTPUT_DRAIN_MS).then(() => false)]);
    if (!drained) {
      child.stdout?.destroy();
      child.stderr?.destroy();
    }
  }

  private outcome(state: FinalState, exitCode: number | null, signal: string | null, note?: string) {
    const { result, resultSource } = this.readResult();
    return {
      state,
      endedAt: new Date().toISOString(),
      exitCode,
      signal,
      result,
      resultSource,
      stderrTail: this.stderr.text(),
      ...(note ? { note } : {}),
    };
  }

  /** The result file when the worker wrote one (even empty), else the end of its stdout. */
  private readResult(): Pick<GenerationOutcome, "result" | "resultSource"> {
    const file = this.launch.files.result;
    if (existsSync(file) && !isLink(file)) { // a link there was planted (by a checkout): never read what it points at
      try {
        return { result: resultText(file), resultSource: "result file" };
      } catch {
        // unreadable (a directory, no permission) or no regular file (a FIFO would block the run's
        // main thread for good): fall back to stdout as if none was written
      }
    }
    const text = this.stdout.text();
    return text === "" ? { result: "", resultSource: "none" } : { result: text, resultSource: "stdout" };
  }
}

/**
 * A result file's text, cut to RESULT_KEEP_BYTES (head and tail) as capText cuts: only its ends are
 * read, so a worker that wrote gigabytes (or truncated the file to 3 GB) cannot stall the run.
 */
function resultText(file: string): string {
  const { head, tail, size } = readRegularFileEndsSync(file, RESULT_KEEP_BYTES);
  if (tail.length === 0) return capText(head.toString("utf8"), RESULT_KEEP_BYTES).text;
  return capText(`${head.toString("utf8")}${tail.toString("utf8")}`, RESULT_KEEP_BYTES, size - head.length - tail.length).text;
}

/** True while a live process of the child's group remains (the leader itself has been reaped). */
function groupExists(child: ChildProcess): boolean {
  return child.pid !== undefined && groupAlive(child.pid);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function cannotStart(program: string, error: Error): string {
  const why = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such program" : error.message;
  return `could not start ${JSON.stringify(program)} (${why}); the harness must fix the vibe roster's command`;
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return s >= 120 ? `${Math.round(s / 60)} min` : `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
