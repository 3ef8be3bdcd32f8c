// The workers domain's entry: the run's worker roster (vibe mode), closed with the run.
import type { VibeSettings } from "../config/resources/vibe.ts";
import type { Connect } from "../host/connect-context.ts";
import { programTrust } from "../platform/executables.ts";
import { WorkerRoster } from "./roster.ts";

export const connect: Connect<VibeSettings, WorkerRoster> = (settings, ctx) => {
  const roster = new WorkerRoster(settings, ctx.workdir, ctx.stateDir, programTrust(ctx.trust, ctx.workdir));
  ctx.lifecycle.add("workers", () => roster.close());
  return roster;
};
