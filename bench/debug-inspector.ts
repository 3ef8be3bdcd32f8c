// The reference for the node adapter in bench/debug.ts: the V8 inspector driven directly over its
// WebSocket (no DAP, no adapter process): spawn node, place the breakpoint, run to it, step.
import { join } from "node:path";
import { CdpClient } from "../src/dap/node/cdp.ts";
import { launchNode } from "../src/dap/node/inspector-target.ts";
import { lowerProcessPriority } from "../src/platform/priority.ts";
import { CHILD_NICE_STEPS } from "../src/process/group.ts";
import { median } from "./stats.ts";

export interface InspectorRound {
  launch: number;
  step: number;
}

/** One launch to the breakpoint at `line` of `program`, then `steps` step-overs, each waited for. */
export async function inspectorRound(node: string, dir: string, program: string, line: number, steps: number): Promise<InspectorRound> {
  const began = performance.now();
  const started = await launchNode({ node, program: join(dir, program), args: [], cwd: dir });
  // At the priority the tool's node runs at (every child of the sidecar runs CHILD_NICE_STEPS below
  // it): on this loaded machine a node at the sidecar's own priority started 2–3 times faster.
  if (started.child.pid !== undefined) lowerProcessPriority(started.child.pid, CHILD_NICE_STEPS);
  const cdp = await CdpClient.connect(started.webSocketUrl);
  let wake: (() => void) | undefined;
  let pauses = 0;
  cdp.on("Debugger.paused", () => {
    pauses++;
    wake?.();
  });
  const nextPause = (after: number) =>
    new Promise<void>((resolve) => {
      if (pauses > after) return resolve();
      wake = () => pauses > after && resolve();
    });
  try {
    await Promise.all([cdp.send("Runtime.enable"), cdp.send("Debugger.enable", {})]);
    const path = join(dir, program);
    await cdp.send("Debugger.setBreakpointByUrl", { urlRegex: `^(file://)?${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, lineNumber: line - 1 });
    let seen = pauses;
    await cdp.send("Runtime.runIfWaitingForDebugger");
    await nextPause(seen); // --inspect-brk's stop before the first line
    seen = pauses;
    await cdp.send("Debugger.resume", {});
    await nextPause(seen);
    const launch = performance.now() - began;
    const times: number[] = [];
    for (let i = 0; i < steps; i++) {
      const t0 = performance.now();
      seen = pauses;
      await cdp.send("Debugger.stepOver", {});
      await nextPause(seen);
      times.push(performance.now() - t0);
    }
    return { launch, step: median(times) };
  } finally {
    cdp.close();
    started.child.kill("SIGKILL");
  }
}
