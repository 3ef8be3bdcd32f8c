// The debug tool's structured answer, per operation: what a client may rely on in each (objects admit more fields: no additionalProperties).
import * as v from "valibot";

const int = v.number();
const frame = v.object({ id: int, name: v.string(), file: v.optional(v.string()), line: v.optional(int), source: v.optional(v.string()) });
const breakpoint = v.object({ verified: v.boolean() });
const placed = { breakpoints: v.array(breakpoint), pending: v.boolean() };

/** Every control call's answer (dap/stop-report.ts): where the program is, and its output since the last one. */
const stop = {
  state: v.picklist(["stopped", "running", "exited", "ended"]),
  reason: v.optional(v.string()),
  description: v.optional(v.string()),
  exception: v.optional(v.string()),
  thread: v.optional(v.object({ id: int, name: v.optional(v.string()) })),
  frame: v.optional(frame),
  exit_code: v.optional(int),
  signal: v.optional(v.string()),
  output: v.string(),
  output_cut: v.optional(v.object({ from: int, to: int })),
  output_incomplete: v.optional(v.boolean()),
};
/** A session's start: its stop report, and the breakpoints sent, by workspace file. */
const started = { ...stop, program: v.string(), breakpoints: v.record(v.string(), v.array(breakpoint)), function_breakpoints: v.array(breakpoint), exception_filters: v.array(v.string()) };

const answer = <O extends string, E extends v.ObjectEntries>(operation: O, entries: E) => v.object({ operation: v.literal(operation), ...entries });

export const debugOutput = v.variant("operation", [
  answer("adapters", { adapters: v.array(v.object({ adapter: v.string(), usable: v.boolean(), detail: v.string(), hint: v.optional(v.string()) })) }),
  // Without a session, its state ("none", or "ended" with why) alone; with one, its stop report.
  answer("status", { ...stop, state: v.picklist(["none", "stopped", "running", "exited", "ended"]), output: v.optional(v.string()) }),
  answer("breakpoints", { file: v.string(), ...placed, moved: v.array(v.object({ from: int, to: int, why: v.string() })) }),
  answer("function_breakpoints", placed),
  answer("exceptions", { filters: v.array(v.string()), pending: v.boolean(), notes: v.array(v.string()) }),
  answer("launch", started),
  answer("restart", started),
  answer("attach", started),
  answer("continue", stop),
  answer("pause", stop),
  answer("step_over", stop),
  answer("step_in", stop),
  answer("step_out", stop),
  answer("run_to", { ...stop, target: v.object({ file: v.string(), line: int }), reached: v.boolean() }),
  answer("threads", { threads: v.array(v.object({ id: int, name: v.string() })), note: v.optional(v.string()) }),
  answer("stack", { thread: int, frames: v.array(frame), note: v.optional(v.string()) }),
  answer("scopes", { scopes: v.array(v.object({ name: v.string(), reference: int, expensive: v.optional(v.boolean()) })) }),
  answer("variables", { variables: v.array(v.object({ name: v.string(), value: v.string(), type: v.optional(v.string()), reference: v.optional(int) })), note: v.optional(v.string()) }),
  answer("evaluate", { result: v.string(), type: v.optional(v.string()), reference: v.optional(int), note: v.optional(v.string()) }),
  answer("set_variable", { name: v.string(), value: v.string(), took: v.boolean(), where: v.string(), type: v.optional(v.string()), claimed: v.optional(v.string()) }),
  answer("output", { output: v.string(), from: int, to: int, total: int, more: int, dropped: int }),
  answer("terminate", {}),
]);
