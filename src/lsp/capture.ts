// A short-lived child's output, captured whole: a project checker's report, a git answer.
import { spawnGroup, stopGroup } from "../process/group.ts";

/** Output beyond this is dropped: a child flooding megabytes has said enough. */
const OUTPUT_MAX_BYTES = 16 * 1024 * 1024;

export interface Output {
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** null when a signal ended it. */
  exitCode: number | null;
}

/** Runs `command` in its own process group; it is stopped after `timeoutMs` (timedOut) or when `signal` aborts. */
export function capture(command: string, args: readonly string[], cwd: string, timeoutMs: number, signal?: AbortSignal, env?: NodeJS.ProcessEnv): Promise<Output> {
  return new Promise((resolvePromise, reject) => {
    const child = spawnGroup(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let bytes = 0;
    let timedOut = false;
    const keep = (into: Buffer[]) => (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= OUTPUT_MAX_BYTES) into.push(chunk);
    };
    child.stdout!.on("data", keep(out));
    child.stderr!.on("data", keep(err));
    const stop = () => void stopGroup(child);
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeoutMs);
    // A cancelled call stops its checker: left running, it held a core for minutes.
    signal?.addEventListener("abort", stop, { once: true });
    if (signal?.aborted) stop();
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`could not run ${command}: ${error.message}`));
    });
    child.once("close", (exitCode: number | null) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", stop);
      resolvePromise({ stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), timedOut, exitCode });
    });
  });
}
