// The debug domain's entry: the run's debug supervisor, closed with the run.
import type { DebugAdapterSettings } from "../config/resources/debug-adapters.ts";
import type { Connect } from "../host/connect-context.ts";
import { useSidecarCommand } from "./node/locate-node.ts";
import { DebugSupervisor } from "./supervisor.ts";

export const connect: Connect<DebugAdapterSettings, DebugSupervisor> = (settings, ctx) => {
  // The Node.js adapter is this sidecar re-run as `__dap-node`, however this runtime runs itself.
  useSidecarCommand(ctx.runtime.selfCommand);
  const supervisor = new DebugSupervisor({
    workdir: ctx.workdir,
    // Untrusted, nothing inside the checkout runs to find an adapter (its .venv, PATH entries in it).
    trustWorkspace: ctx.trust === "workspace",
    ...(settings.ttlSeconds !== undefined ? { ttlMs: settings.ttlSeconds * 1000 } : {}),
    ...(settings.stopWaitSeconds !== undefined ? { stopWaitMs: settings.stopWaitSeconds * 1000 } : {}),
    ...(settings.adapters ? { overrides: settings.adapters } : {}),
  });
  ctx.lifecycle.add("debug sessions", () => supervisor.close());
  // The first debugpy launch of a run would spend 0.5–1.5 s finding which python3 has debugpy (a
  // pyenv shim first on PATH): asked once the run serves and is quiet instead (started during
  // connect, its spawns and PATH scan added 17–27 ms to the start, bench/startup.ts; started at the
  // ready line, it took the CPU from the agent's first call).
  ctx.lifecycle.afterServing(() => void supervisor.probePython(false));
  return supervisor;
};
