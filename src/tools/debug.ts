// The `debug` tool: drive a real debug adapter (debugpy, delve, lldb, dart, node) for the run's conversation.
import type { BreakpointOptions, FunctionBreakpoint, LineBreakpoint } from "../dap/breakpoint-book.ts";
import { evaluate, scopes, stack, threads, variables } from "../dap/inspect.ts";
import { setVariable } from "../dap/set-variable.ts";
import { runTo, stepFromShownFrame } from "../dap/stepping.ts";
import type { StopReport } from "../dap/stop-report.ts";
import { stopReportText } from "./debug-stop-text.ts";
import type { Started, DebugSupervisor } from "../dap/supervisor.ts";
import type { SyntaxService } from "../syntax/service.ts";
import type * as v from "valibot";
import { defineTool, type Tool, type ToolReply } from "../tool/define.ts";
import { relativeToWorkdir, resolveInWorkdir } from "../workspace/paths.ts";
import { shownPath } from "../workspace/shown-path.ts";
import { debugInput, type DebugArgs } from "./debug-input.ts";
import { debugOutput } from "./debug-output.ts";
import { SourceLineCheck } from "./debug-lines.ts";
import { breakpointLine, breakpointLines, movedLines, outputPageText, sessionFacts } from "./debug-replies.ts";
import description from "./debug.txt" with { type: "text" };

/** How much program output one `output` call returns; the next call returns the next page. */
const OUTPUT_PAGE_CHARS = 16_000;

export function debugTool(supervisor: DebugSupervisor, syntax?: SyntaxService): Tool {
  const lines = new SourceLineCheck(supervisor.workdir, syntax);
  return defineTool({
    name: "debug",
    title: "Debugger",
    tier: "exec",
    description,
    input: debugInput,
    output: debugOutput,
    run: (args, ctx) => supervisor.serialized(() => operate({ supervisor, lines }, args, ctx.signal)),
  });
}

interface Deps {
  supervisor: DebugSupervisor;
  lines: SourceLineCheck;
}

function options(given: { condition?: string | undefined; hit_condition?: string | undefined; log_message?: string | undefined }): BreakpointOptions {
  return {
    ...(given.condition !== undefined ? { condition: given.condition } : {}),
    ...(given.hit_condition !== undefined ? { hitCondition: given.hit_condition } : {}),
    ...(given.log_message !== undefined ? { logMessage: given.log_message } : {}),
  };
}

type Answer = v.InferInput<typeof debugOutput>;

async function operate({ supervisor, lines }: Deps, args: DebugArgs, signal: AbortSignal): Promise<ToolReply<Answer>> {
  const reply = <A extends Answer>(text: string, data: A) => ({ text, data });
  const stopReply = <O extends Answer["operation"], E extends object>(operation: O, report: StopReport, extra: E, prefix = "") =>
    ({ text: prefix + stopReportText(report), data: { operation, ...report, ...extra } });
  const startedReply = <O extends "launch" | "restart" | "attach">(operation: O, verb: string, started: Started) =>
    stopReply(
      operation,
      started.report,
      { program: started.session.label, breakpoints: started.breakpoints, function_breakpoints: started.functionBreakpoints, exception_filters: started.exceptionFilters },
      `${verb} ${started.session.label}.\n${breakpointLines(supervisor.workdir, started.breakpoints, started.functionBreakpoints)}${started.notes.map((n) => `${n}\n`).join("")}`,
    );
  const session = (pid: number | undefined) => supervisor.session(pid);
  switch (args.operation) {
    case "adapters": {
      const found = await supervisor.adapters();
      const text = found.map((d) => `${d.adapter}: ${d.usable ? "usable" : "not usable"} — ${d.detail}${d.hint ? ` (fix: ${d.hint})` : ""}`);
      return reply(text.join("\n"), { operation: "adapters", adapters: found.map(({ adapter, usable, detail, hint }) => ({ adapter, usable, detail, ...(hint ? { hint } : {}) })) });
    }
    case "status": {
      const current = supervisor.sessionOrWhyNot();
      if ("none" in current) return reply(current.none, { operation: "status", state: current.expired ? "ended" : "none", ...(current.expired ? { description: current.none } : {}) });
      if (args.pid !== undefined) supervisor.session(args.pid); // moves the focus, or says there is no such process
      const facts = sessionFacts(supervisor, current);
      // With children debugged, the state shown is the process calls act on; the facts list them all.
      return stopReply("status", await current.family.focus.status(), facts.data, facts.text);
    }
    case "breakpoints": {
      const path = resolveInWorkdir(supervisor.workdir, args.file);
      const rel = relativeToWorkdir(supervisor.workdir, path);
      const given = args.lines.map((entry): LineBreakpoint => (typeof entry === "number" ? { line: entry, ...options(args) } : { line: entry.line, ...options(entry) }));
      const verdicts = given.length ? await lines.check(path, given.map((spec) => spec.line)) : [];
      const specs = given.map((spec, i) => {
        const verdict = verdicts[i]!;
        return verdict.kind === "moved" ? { ...spec, line: verdict.to } : spec;
      });
      const placed = await supervisor.setBreakpoints(path, specs);
      const text = placed.breakpoints.length ? placed.breakpoints.map((b) => breakpointLine(rel, b)) : [`Cleared the breakpoints in ${shownPath(rel)}.`];
      return reply([...movedLines(rel, verdicts), ...text].join("\n"), {
        operation: "breakpoints",
        file: rel,
        breakpoints: placed.breakpoints,
        pending: placed.pending,
        moved: verdicts.flatMap((verdict) => (verdict.kind === "moved" ? [{ from: verdict.line, to: verdict.to, why: verdict.why }] : [])),
      });
    }
    case "function_breakpoints": {
      const specs = args.functions.map((entry): FunctionBreakpoint => (typeof entry === "string" ? { name: entry } : { name: entry.name, ...options(entry) }));
      const placed = await supervisor.setFunctionBreakpoints(specs);
      const text = placed.breakpoints.length ? placed.breakpoints.map((b) => breakpointLine("", b)).join("\n") : "Cleared the function breakpoints.";
      return reply(text, { operation: "function_breakpoints", breakpoints: placed.breakpoints, pending: placed.pending });
    }
    case "exceptions": {
      const chosen = await supervisor.setExceptionFilters(args.filters);
      const text = chosen.pending
        ? `Exception filters ${chosen.filters.length ? chosen.filters.join(", ") : "(none)"} will be sent at launch; each adapter's own names apply (debugpy: raised, uncaught, userUnhandled).`
        : `Exception filters on: ${chosen.filters.join(", ") || "none"}.`;
      return reply([text, ...chosen.notes].join("\n"), { operation: "exceptions", filters: chosen.filters, pending: chosen.pending, notes: chosen.notes });
    }
    case "launch": {
      const stdin = args.stdin !== undefined ? { text: args.stdin } : args.stdin_file !== undefined ? { file: args.stdin_file } : undefined;
      const started = await supervisor.launch(
        {
          program: args.program,
          args: args.args ?? [],
          ...(args.env ? { env: args.env } : {}),
          ...(args.adapter ? { adapter: args.adapter } : {}),
          ...(stdin ? { stdin } : {}),
          ...(args.child_processes ? { subprocesses: true } : {}),
        },
        signal,
      );
      return startedReply("launch", "Launched", started);
    }
    case "restart":
      return startedReply("restart", "Restarted", await supervisor.restart(signal));
    case "attach":
      return startedReply("attach", "Attached:", await supervisor.attach(args.port, args.adapter, signal));
    case "continue":
      return stopReply("continue", await session(args.pid).resume("continue", args.thread_id, signal), {});
    case "step_over":
    case "step_in":
    case "step_out": {
      const command = args.operation === "step_over" ? "next" : args.operation === "step_in" ? "stepIn" : "stepOut";
      const stepped = await stepFromShownFrame(session(args.pid), command, args.thread_id, signal);
      const first = stepped.climbed.length
        ? `First returned to the shown frame from ${stepped.climbed.length} frame(s) above it (${stepped.climbed.join(" ← ")})${stepped.interrupted ? ", and stopped on the way" : ""}.\n`
        : "";
      return stopReply(args.operation, stepped.report, stepped.climbed.length ? { stepped_out_of: stepped.climbed } : {}, first);
    }
    case "run_to": {
      const path = resolveInWorkdir(supervisor.workdir, args.file);
      const rel = relativeToWorkdir(supervisor.workdir, path);
      const shown = shownPath(rel);
      const [verdict] = await lines.check(path, [args.line]);
      const line = verdict!.kind === "moved" ? verdict!.to : args.line;
      const outcome = await runTo(session(args.pid), supervisor.book(), path, line, signal);
      const head = [
        ...movedLines(rel, [verdict!]),
        outcome.reached
          ? `Ran to ${shown}:${outcome.line}.`
          : outcome.report.state === "running"
            ? `Still running: ${shown}:${outcome.line} was not reached yet; the temporary breakpoint there stays until the program next stops.`
            : `Did not reach ${shown}:${outcome.line}: the program stopped elsewhere first.`,
      ];
      return stopReply("run_to", outcome.report, { target: { file: rel, line: outcome.line }, reached: outcome.reached }, `${head.join("\n")}\n`);
    }
    case "pause":
      return stopReply("pause", await session(args.pid).pause(args.thread_id, signal), {});
    case "threads": {
      const list = await threads(session(args.pid));
      const text = list.threads.map((t) => `${t.id} ${t.name}`);
      if (list.note) text.push(list.note);
      return reply(text.join("\n") || "No threads.", { operation: "threads", ...list });
    }
    case "stack": {
      const frames = await stack(session(args.pid), args.thread_id);
      const text = frames.frames.map((f) => `#${f.id} ${f.name} ${f.file ? `${shownPath(f.file)}:${f.line}` : "(no source)"}${f.source !== undefined ? `  | ${f.source}` : ""}`);
      if (frames.note) text.push(frames.note);
      return reply(`Thread ${frames.thread} (frame ids first):\n${text.join("\n")}`, { operation: "stack", ...frames });
    }
    case "scopes": {
      const list = await scopes(session(args.pid), args.frame_id);
      return reply(list.map((s) => `${s.name}: reference ${s.reference}${s.expensive ? " (expensive)" : ""}`).join("\n") || "No scopes.", { operation: "scopes", scopes: list });
    }
    case "variables": {
      const found = await variables(session(args.pid), args.reference, args.offset ?? 0);
      const text = found.variables.map((x) => `${x.name}${x.type ? ` (${x.type})` : ""} = ${x.value}${x.reference ? `  [reference ${x.reference}]` : ""}`);
      if (found.note) text.push(found.note);
      return reply(text.join("\n") || "No variables.", { operation: "variables", ...found });
    }
    case "evaluate": {
      const result = await evaluate(session(args.pid), args.expression, args.frame_id);
      // debugpy answers a statement (`x = 42`) with an empty result: say it ran, not nothing.
      const shown = result.result === "" && !result.type ? "(no value: it ran as a statement)" : result.result;
      const text = `${shown}${result.type ? ` (${result.type})` : ""}${result.reference ? `  [reference ${result.reference}]` : ""}${result.note ? `\n${result.note}` : ""}`;
      return reply(text, { operation: "evaluate", ...result });
    }
    case "set_variable": {
      const set = await setVariable(session(args.pid), args.name, args.value, args.reference, args.frame_id);
      const text = set.took
        ? `${set.name} = ${set.value}${set.type ? ` (${set.type})` : ""} in ${set.where}, read back after the change.`
        : `${set.name} in ${set.where} reads ${set.value} after the change, not ${args.value}${set.claimed !== undefined ? ` (the adapter said ${set.claimed})` : ""}: the change did not take as asked.`;
      return { ...reply(text, { operation: "set_variable", ...set }), isError: !set.took };
    }
    case "output": {
      const page = session(args.pid).output.page("output", OUTPUT_PAGE_CHARS, args.offset);
      return reply(outputPageText(page), { operation: "output", output: page.text, from: page.from, to: page.to, total: page.total, more: page.more, dropped: page.dropped });
    }
    case "terminate":
      return reply(await supervisor.terminate(), { operation: "terminate" });
  }
}
