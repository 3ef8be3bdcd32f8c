// `sidecar serve`: one server for one agent run, until SIGINT/SIGTERM.
import { keepHelperThreadsLow } from "../platform/priority.ts";
import type { RuntimePrimitives } from "../runtime/primitives.ts";
import { readyLine, startRun } from "../run/start.ts";
import type { CliFlags } from "./args.ts";
import { settingsFromFlags } from "./load-settings.ts";

export async function serveCommand(flags: CliFlags, runtime: RuntimePrimitives): Promise<number> {
  const settings = settingsFromFlags(flags);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const run = await startRun(settings, runtime, { allowRemote: flags["allow-remote"], log });
  // Under load the runtime's JIT, GC and allocator threads took turns ahead of the main thread.
  const stopLoweringHelpers = keepHelperThreadsLow();
  process.stdout.write(`${readyLine(run)}\n`);
  log(`sidecar: serving ${settings.workdir} at ${run.url}`);

  const stopped = new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      log(`sidecar: ${signal} received, shutting down`);
      stopLoweringHelpers();
      run.close().then(() => resolve(0));
    };
    process.on("SIGINT", () => stop("SIGINT"));
    process.on("SIGTERM", () => stop("SIGTERM"));
  });
  return stopped;
}
