// The `debug` tool: drive a real debug adapter (debugpy, delve, lldb, dart) for this conversation.
import * as v from "valibot";
import { ADAPTER_IDS } from "../dap/catalog.ts";
import { evaluate, scopes, stack, threads, variables } from "../dap/inspect.ts";
import { formatReport, type StopReport } from "../dap/stop-report.ts";
import type { BreakpointResult } from "../dap/session.ts";
import type { DebugSupervisor } from "../dap/supervisor.ts";
import { capText } from "../tool/budget.ts";
import { defineTool, type Tool } from "../tool/define.ts";
import { relativeToWorkdir } from "../workspace/paths.ts";
import description from "./debug.txt" with { type: "text" };
import { shownPath } from "../workspace/shown-path.ts";

/** How much program output one `output` call returns; the ring keeps more. */
const OUTPUT_REPLY_BYTES = 16_000;

const OPERATIONS = [
  "adapters",
  "status",
  "breakpoints",
  "launch",
  "attach",
  "continue",
  "pause",
  "step_over",
  "step_in",
  "step_out",
  "threads",
  "stack",
  "scopes",
  "variables",
  "evaluate",
  "output",
  "terminate",
] as const;
type Operation = (typeof OPERATIONS)[number];

const id = (what: string) => v.pipe(v.number(`expected ${what} as a number`), v.integer(`expected ${what} as an integer`), v.minValue(0, `expected ${what} ≥ 0`));

/** Arguments each operation cannot do without. */
const REQUIRED: Partial<Record<Operation, readonly string[]>> = {
  breakpoints: ["file", "lines"],
  launch: ["program"],
  attach: ["port"],
  scopes: ["frame_id"],
  variables: ["reference"],
  evaluate: ["expression"],
};

const input = v.pipe(
  v.strictObject({
    operation: v.pipe(
      v.picklist(OPERATIONS, `expected operation as one of ${OPERATIONS.join(", ")}`),
      v.description("What to do; the tool's description gives the usual flow and the arguments each operation takes."),
    ),
    file: v.optional(
      v.pipe(
        v.string("expected file as a path"),
        v.minLength(1, "expected a file path"),
        v.description("With breakpoints: the source file (workspace-relative) whose breakpoints lines replaces."),
      ),
    ),
    lines: v.optional(
      v.pipe(
        v.array(v.pipe(v.number(), v.integer("expected whole line numbers"), v.minValue(1, "lines are 1-based")), "expected lines as a list of numbers"),
        v.description("With breakpoints: the 1-based lines of file to stop at, replacing its earlier ones; [] clears them."),
      ),
    ),
    program: v.optional(
      v.pipe(
        v.string("expected program as a path"),
        v.minLength(1, "expected a program path"),
        v.description("With launch: what to debug, workspace-relative: a .py file, a Go package directory or .go file, or a compiled binary."),
      ),
    ),
    args: v.optional(
      v.pipe(
        v.array(v.string("expected each program argument as a string"), "expected args as a list of strings"),
        v.description("With launch: the program's command-line arguments."),
      ),
    ),
    adapter: v.optional(
      v.pipe(
        v.picklist(ADAPTER_IDS, `expected adapter as one of ${ADAPTER_IDS.join(", ")}`),
        v.description("With launch or attach: the debug adapter to use; by default launch picks it from the program, attach the only usable one."),
      ),
    ),
    port: v.optional(
      v.pipe(
        v.number("expected port as a number"),
        v.integer(),
        v.minValue(1, "expected a port 1-65535"),
        v.maxValue(65535, "expected a port 1-65535"),
        v.description("With attach: the local port on which the debuggee already listens (the tool's description gives each adapter's command)."),
      ),
    ),
    thread_id: v.optional(
      v.pipe(id("thread_id"), v.description("With continue, pause, step_over, step_in, step_out, stack: the thread (from threads or a stop report); default the stopped one.")),
    ),
    frame_id: v.optional(
      v.pipe(id("frame_id"), v.description("With scopes (needed) or evaluate: a frame id from stack, valid until the next continue or step; evaluate defaults to the top frame.")),
    ),
    reference: v.optional(
      v.pipe(id("reference"), v.description("With variables: a variables reference from scopes or variables, valid until the next continue or step.")),
    ),
    expression: v.optional(
      v.pipe(
        v.string("expected expression as a string"),
        v.minLength(1, "expected a non-empty expression"),
        v.description("With evaluate: an expression in the program's language, evaluated in frame_id's frame."),
      ),
    ),
  }),
  v.check(
    (args) => missingFor(args).length === 0,
    (issue) => {
      const args = issue.input as { operation: Operation };
      return `${args.operation} needs ${missingFor(args).join(" and ")}`;
    },
  ),
);

function breakpointLine(rel: string, b: BreakpointResult): string {
  return `${shownPath(rel)}:${b.line} ${b.verified ? "verified" : "not verified"}${b.actual_line ? `, moved to line ${b.actual_line}` : ""}${b.message ? ` (${b.message})` : ""}`;
}

/** Where the breakpoints sent at start landed: one the adapter refused or moved is never hit where the model expects. */
function breakpointLines(workdir: string, placed: Record<string, BreakpointResult[]>): string {
  const lines = Object.entries(placed).flatMap(([file, results]) => results.map((b) => `breakpoint ${breakpointLine(relativeToWorkdir(workdir, file), b)}\n`));
  return lines.join("");
}

function missingFor(args: Record<string, unknown> & { operation: Operation }): string[] {
  return (REQUIRED[args.operation] ?? []).filter((key) => args[key] === undefined);
}

const output = v.looseObject({ operation: v.string() });

export function debugTool(supervisor: DebugSupervisor, conversation: string): Tool {
  return defineTool({
    name: "debug",
    title: "Debugger",
    tier: "exec",
    description,
    input,
    output,
    run: (args, ctx) => supervisor.serialized(conversation, () => operate(supervisor, conversation, args, ctx.signal)),
  });
}

type Args = v.InferOutput<typeof input>;

async function operate(supervisor: DebugSupervisor, conversation: string, args: Args, signal: AbortSignal) {
  const { operation } = args;
  const reply = (text: string, data: Record<string, unknown>) => ({ text, data: { operation, ...data } });
  const stopReply = (report: StopReport, extra: Record<string, unknown> = {}, prefix = "") =>
    reply(prefix + formatReport(report), { ...report, ...extra });
  const session = () => supervisor.session(conversation);
  switch (operation) {
    case "adapters": {
      const found = await supervisor.adapters();
      const lines = found.map((d) => `${d.adapter}: ${d.usable ? "usable" : "not usable"} — ${d.detail}${d.hint ? ` (fix: ${d.hint})` : ""}`);
      return reply(lines.join("\n"), { adapters: found.map(({ adapter, usable, detail, hint }) => ({ adapter, usable, detail, ...(hint ? { hint } : {}) })) });
    }
    case "status": {
      const current = session();
      const left = Math.round(supervisor.ttlLeft(current) / 1000);
      const report = await current.status();
      return stopReply(report, {
        program: current.label,
        adapter: current.adapter.id,
        ttl_left_s: left,
        ...(current.adapterPid !== undefined ? { adapter_pid: current.adapterPid } : {}),
        ...(current.programPid !== undefined ? { debuggee_pid: current.programPid } : {}),
      }, `Session: ${current.label}, ${left} s of TTL left.\n`);
    }
    case "breakpoints": {
      const placed = await supervisor.setBreakpoints(conversation, args.file!, args.lines!);
      const rel = relativeToWorkdir(supervisor.workdir, placed.file);
      const text = placed.breakpoints.length ? placed.breakpoints.map((b) => breakpointLine(rel, b)).join("\n") : `Cleared the breakpoints in ${shownPath(rel)}.`;
      return reply(text, { file: rel, breakpoints: placed.breakpoints, pending: placed.pending });
    }
    case "launch": {
      const started = await supervisor.launch(conversation, args.program!, args.args ?? [], args.adapter, signal);
      return stopReply(started.report, { program: started.session.label, breakpoints: started.breakpoints }, `Launched ${started.session.label}.\n${breakpointLines(supervisor.workdir, started.breakpoints)}`);
    }
    case "attach": {
      const started = await supervisor.attach(conversation, args.port!, args.adapter, signal);
      return stopReply(started.report, { program: started.session.label, breakpoints: started.breakpoints }, `Attached: ${started.session.label}.\n${breakpointLines(supervisor.workdir, started.breakpoints)}`);
    }
    case "continue":
      return stopReply(await session().resume("continue", args.thread_id, signal));
    case "step_over":
      return stopReply(await session().resume("next", args.thread_id, signal));
    case "step_in":
      return stopReply(await session().resume("stepIn", args.thread_id, signal));
    case "step_out":
      return stopReply(await session().resume("stepOut", args.thread_id, signal));
    case "pause":
      return stopReply(await session().pause(args.thread_id, signal));
    case "threads": {
      const list = await threads(session());
      const lines = list.threads.map((t) => `${t.id} ${t.name}`);
      if (list.note) lines.push(list.note);
      return reply(lines.join("\n") || "No threads.", list);
    }
    case "stack": {
      const frames = await stack(session(), args.thread_id);
      const lines = frames.frames.map((f) => `#${f.id} ${f.name} ${f.file ? `${shownPath(f.file)}:${f.line}` : "(no source)"}${f.source !== undefined ? `  | ${f.source}` : ""}`);
      if (frames.note) lines.push(frames.note);
      return reply(`Thread ${frames.thread} (frame ids first):\n${lines.join("\n")}`, frames);
    }
    case "scopes": {
      const list = await scopes(session(), args.frame_id!);
      return reply(list.map((s) => `${s.name}: reference ${s.reference}${s.expensive ? " (expensive)" : ""}`).join("\n") || "No scopes.", { scopes: list });
    }
    case "variables": {
      const found = await variables(session(), args.reference!);
      const lines = found.variables.map((x) => `${x.name}${x.type ? ` (${x.type})` : ""} = ${x.value}${x.reference ? `  [reference ${x.reference}]` : ""}`);
      if (found.note) lines.push(found.note);
      return reply(lines.join("\n") || "No variables.", found);
    }
    case "evaluate": {
      const result = await evaluate(session(), args.expression!, args.frame_id);
      // debugpy answers a statement (`x = 42`) with an empty result: say it ran, not nothing.
      const shown = result.result === "" && !result.type ? "(no value: it ran as a statement)" : result.result;
      return reply(`${shown}${result.type ? ` (${result.type})` : ""}${result.reference ? `  [reference ${result.reference}]` : ""}`, result);
    }
    case "output": {
      const read = session().output.read("output");
      const capped = capText(read.text, OUTPUT_REPLY_BYTES);
      const dropped = read.dropped + capped.cutBytes;
      const notes = [
        ...(read.dropped ? [`(${read.dropped} characters were dropped before they were read; the buffer is bounded)`] : []),
        ...(capped.cutBytes ? [`(${capped.cutBytes} characters were cut from the middle of this answer)`] : []),
      ];
      return reply([capped.text || "No new output.", ...notes].join("\n"), { output: capped.text, dropped });
    }
    case "terminate":
      return reply(await supervisor.terminate(conversation), {});
  }
}
