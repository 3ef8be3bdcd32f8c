// `sidecar serve`: one server for one agent run, until SIGINT/SIGTERM/SIGHUP or its harness exits.
import { closeMemoryToOtherProcesses } from "../platform/non-dumpable.ts";
import { watchParent } from "../platform/parent-watch.ts";
import { keepHelperThreadsLow } from "../platform/priority.ts";
import type { RuntimePrimitives } from "../host/runtime.ts";
import { readyLine, startRun } from "../run/start.ts";
import type { CliFlags } from "./args.ts";
import { settingsFromFlags } from "./load-settings.ts";
import { noToolWarning } from "./run-tools.ts";

export async function serveCommand(flags: CliFlags, runtime: RuntimePrimitives): Promise<number> {
  await closeMemoryToOtherProcesses(); // before the tokens exist: no child can read them from /proc/<pid>/mem
  // Read before start-up, so that a harness dying while the run starts is noticed too.
  const parent = process.ppid;
  const settings = settingsFromFlags(flags);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const run = await startRun(settings, runtime, { allowRemote: flags["allow-remote"], log });
  // Under load the runtime's JIT, GC and allocator threads took turns ahead of the main thread.
  const stopLoweringHelpers = keepHelperThreadsLow();
  process.stdout.write(`${readyLine(run)}\n`);
  log(`sidecar: serving ${settings.workdir} at ${run.url}`);
  const warning = noToolWarning(run.registry);
  if (warning) log(warning);

  const stopped = new Promise<number>((resolve) => {
    let stopping = false;
    let stopWatchingParent = () => {};
    const stop = (reason: string) => {
      if (stopping) return;
      stopping = true;
      log(`sidecar: ${reason}, shutting down`);
      stopLoweringHelpers();
      stopWatchingParent();
      run.close().then(() => resolve(0));
    };
    process.on("SIGINT", () => stop("SIGINT received"));
    process.on("SIGTERM", () => stop("SIGTERM received"));
    // The terminal it ran in closed: by default that kills the process with no shutdown at all.
    process.on("SIGHUP", () => stop("SIGHUP received"));
    if (!flags["outlive-parent"]) stopWatchingParent = watchParent(parent, () => stop(`the process that started it (pid ${parent}) exited`));
  });
  return stopped;
}
