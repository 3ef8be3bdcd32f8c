// The Node.js debug adapter: DAP requests from the sidecar, carried out over the V8 inspector of one node process.
import type { ChildProcess } from "node:child_process";
import { constants } from "node:os";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type Protocol from "devtools-protocol";
import { Breakpoints } from "./breakpoints.ts";
import { CdpClient } from "./cdp.ts";
import { DapRefusal, type DapServerConnection } from "./dap-server.ts";
import { ASYNC_STACK_DEPTH, PauseInspection } from "./inspection.ts";
import { inspectorUrlAt, launchNode } from "./inspector-target.ts";
import { ScriptTable } from "./scripts.ts";

const THREAD_ID = 1;

export interface AdapterTools {
  node: string;
  /** tsx's ESM loader (`dist/loader.mjs`), when tsx was found: TypeScript programs need it. */
  tsxLoader?: string;
}

const CAPABILITIES: DebugProtocol.Capabilities = {
  supportsConfigurationDoneRequest: true,
  supportsConditionalBreakpoints: true,
  supportsHitConditionalBreakpoints: true,
  supportsLogPoints: true,
  supportsFunctionBreakpoints: true,
  supportsSetVariable: true,
  supportsExceptionInfoRequest: true,
  supportsTerminateRequest: true,
  supportsDelayedStackTraceLoading: true,
  exceptionBreakpointFilters: [
    { filter: "all", label: "Caught Exceptions", default: false, description: "Stop at every exception thrown, caught or not" },
    { filter: "uncaught", label: "Uncaught Exceptions", default: true, description: "Stop at exceptions nothing catches, and unhandled promise rejections" },
  ],
};

/**
 * fork() and new Worker() hand the program's execArgv to the process or thread they start: with our
 * --inspect-brk in it, a forked child stopped before its first line waiting for a debugger nobody
 * attaches, and the program waited on it for ever. Taken out before the program runs, they run free.
 */
const WITHOUT_INSPECT_FLAGS = "process.execArgv.splice(0, process.execArgv.length, ...process.execArgv.filter((flag) => !/^--inspect/.test(flag))), undefined";

/** Scripts whose frames steps pass through, as VS Code's js-debug skips `<node_internals>`: Node's own and tsx's loader. */
const SKIPPED_SCRIPTS = ["^node:", "/node_modules/tsx/"];

/**
 * What runs a TypeScript program, not the program: tsx, and the esbuild it transforms with (whose
 * synchronous API runs in a worker thread of its own).
 */
const TOOLING_SCRIPT = /\/node_modules\/(tsx|esbuild)\//;

export class NodeAdapter {
  private cdp: CdpClient | undefined;
  private child: ChildProcess | undefined;
  private readonly scripts = new ScriptTable();
  private breakpoints: Breakpoints | undefined;
  private pause: PauseInspection | undefined;
  private lastException: Protocol.Runtime.RemoteObject | undefined;
  /** What the program was last told to do, to name the next stop. */
  private resumedBy: "step" | "pause" | "continue" = "continue";
  /** Until configurationDone has run the program, the pause `--inspect-brk` makes is ours, not the user's. */
  private starting = true;
  private launched = false;
  private exceptionState: "none" | "uncaught" | "all" = "uncaught";
  private ended = false;

  constructor(
    private readonly dap: DapServerConnection,
    private readonly tools: AdapterTools,
  ) {}

  async handle(command: string, args: Record<string, any>): Promise<unknown> {
    switch (command) {
      case "initialize":
        return CAPABILITIES;
      case "launch":
        return this.launch(args);
      case "attach":
        return this.attach(Number(args.port));
      case "setBreakpoints":
        return { breakpoints: await this.book().setLines(args.source.path, args.breakpoints ?? (args.lines ?? []).map((line: number) => ({ line }))) };
      case "setFunctionBreakpoints":
        return { breakpoints: await this.functionBreakpoints(args.breakpoints ?? []) };
      case "setExceptionBreakpoints":
        return this.setExceptions(args.filters ?? []);
      case "configurationDone":
        await this.inspector().send("Runtime.runIfWaitingForDebugger");
        return undefined;
      case "threads":
        return { threads: [{ id: THREAD_ID, name: "main" }] };
      case "stackTrace":
        return this.paused().stackTrace(args.startFrame, args.levels);
      case "scopes":
        return this.paused().scopes(args.frameId);
      case "variables":
        return this.paused().variables(args.variablesReference);
      case "evaluate":
        return this.pause ? this.pause.evaluate(args.expression, args.frameId) : new PauseInspection(this.inspector(), this.scripts, { callFrames: [], reason: "other" }).evaluate(args.expression, undefined);
      case "setVariable":
        return this.paused().setVariable(args.variablesReference, args.name, args.value);
      case "exceptionInfo":
        return this.exceptionInfo();
      case "continue":
        await this.resume("continue", "Debugger.resume");
        return { allThreadsContinued: true };
      case "next":
        return this.resume("step", "Debugger.stepOver");
      case "stepIn":
        return this.resume("step", "Debugger.stepInto");
      case "stepOut":
        return this.resume("step", "Debugger.stepOut");
      case "pause":
        this.resumedBy = "pause";
        await this.inspector().send("Debugger.pause");
        return undefined;
      case "terminate":
        this.child?.kill("SIGKILL");
        return undefined;
      case "disconnect":
        return this.disconnect(args.terminateDebuggee !== false && this.launched);
      default:
        throw new DapRefusal(`the Node.js adapter does not support ${command}`);
    }
  }

  /** The socket to the sidecar closed: a launched program goes with it. */
  shutdown(): void {
    if (this.launched) this.child?.kill("SIGKILL");
    this.cdp?.close();
  }

  private async launch(args: Record<string, any>): Promise<undefined> {
    const program = String(args.program);
    const typescript = /\.[cm]?tsx?$/.test(program);
    if (typescript && !this.tools.tsxLoader) {
      throw new DapRefusal(`${program} is TypeScript, and no tsx was found to run it: install it (npm install -g tsx) so \`tsx\` is on PATH`);
    }
    this.launched = true;
    const started = await launchNode({
      node: this.tools.node,
      program,
      args: args.args ?? [],
      cwd: args.cwd,
      ...(args.env ? { env: args.env } : {}),
      ...(typescript ? { tsxLoader: this.tools.tsxLoader! } : {}),
    });
    this.child = started.child;
    // 'close' comes after the program's stderr has been passed on: the sidecar reads all its output before the exit.
    started.child.once("close", (code, signal) => this.programEnded(code ?? 128 + signalNumber(signal)));
    await this.connect(started.webSocketUrl);
    this.dap.event("process", { name: program, systemProcessId: started.child.pid, isLocalProcess: true, startMethod: "launch" });
    this.dap.event("initialized");
    return undefined;
  }

  private async attach(port: number): Promise<undefined> {
    if (!Number.isInteger(port) || port <= 0) throw new DapRefusal("attach needs the port the program's inspector listens on (node --inspect=127.0.0.1:PORT)");
    // An attached program already runs: its first stop is the user's (`--inspect-brk`'s shows as "entry").
    this.starting = false;
    await this.connect(await inspectorUrlAt(port));
    const pid = await this.inspector().send("Runtime.evaluate", { expression: "process.pid", returnByValue: true }).catch(() => undefined);
    if (typeof pid?.result.value === "number") this.dap.event("process", { name: `port ${port}`, systemProcessId: pid.result.value, isLocalProcess: true, startMethod: "attach" });
    this.dap.event("initialized");
    return undefined;
  }

  private async connect(url: string): Promise<void> {
    const cdp = await CdpClient.connect(url);
    this.cdp = cdp;
    this.breakpoints = new Breakpoints(cdp, this.scripts);
    cdp.on("Debugger.scriptParsed", (event) => this.scripts.add(event));
    cdp.on("Debugger.paused", (event) => void this.onPaused(event).catch((error: Error) => this.note(`could not handle a stop: ${error.message}`)));
    cdp.on("Debugger.resumed", () => {
      this.pause?.release();
      this.pause = undefined;
    });
    // The program's code is done and node waits for the debugger to let go: letting go lets it exit.
    cdp.on("Runtime.executionContextDestroyed", () => cdp.close());
    cdp.on("NodeWorker.attachedToWorker", (event) => {
      // Let go at once, having let it run: a worker inherits --inspect-brk and waits for a debugger
      // (the program hung on it), and an attached one waits at its end for its debugger to disconnect.
      const message = JSON.stringify({ id: 1, method: "Runtime.runIfWaitingForDebugger" });
      void cdp
        .send("NodeWorker.sendMessageToWorker", { sessionId: event.sessionId, message })
        .then(() => cdp.send("NodeWorker.detach", { sessionId: event.sessionId }))
        .catch(() => undefined);
      if (!event.workerInfo.url.startsWith("node:internal/") && !TOOLING_SCRIPT.test(event.workerInfo.url)) this.note(`the program started a worker thread (${event.workerInfo.title || event.workerInfo.url}); worker threads are not debugged`);
    });
    cdp.onClose(() => {
      if (!this.launched) this.programEnded(undefined);
    });
    await Promise.all([
      cdp.send("Runtime.enable"),
      cdp.send("Debugger.enable", {}),
      cdp.send("Debugger.setAsyncCallStackDepth", { maxDepth: ASYNC_STACK_DEPTH }),
      cdp.send("Debugger.setBlackboxPatterns", { patterns: SKIPPED_SCRIPTS }),
      cdp.send("Debugger.setPauseOnExceptions", { state: this.exceptionState }),
      cdp.send("NodeWorker.enable", { waitForDebuggerOnStart: false }).catch(() => undefined),
    ]);
  }

  private async onPaused(event: Protocol.Debugger.PausedEvent): Promise<void> {
    const cdp = this.inspector();
    const top = event.callFrames[0];
    if (top && this.book().isEntry(event.hitBreakpoints ?? [])) {
      // One of our breakpoints before a script runs: its breakpoints go in, and the program runs on.
      if (!(await this.book().entered(top.location.scriptId, top.location))) {
        await cdp.send("Debugger.resume", {});
        return;
      }
    }
    // Before the start stop too: tsx throws and catches while it loads, ahead of the program's first line.
    if (this.thrownAndCaughtByTooling(event)) {
      await cdp.send("Debugger.resume", {});
      return;
    }
    const hit = this.book().kindOf(event.hitBreakpoints ?? []) ?? (top && this.book().isEntry(event.hitBreakpoints ?? []) ? "breakpoint" : undefined);
    if (this.starting && !hit) {
      // `--inspect-brk`'s stop before the first line: breakpoints are placed, so the program runs on.
      this.starting = false;
      if (this.launched) await cdp.send("Runtime.evaluate", { expression: WITHOUT_INSPECT_FLAGS }).catch(() => undefined);
      await this.book().placeInLoadedScripts();
      await cdp.send("Debugger.resume", {});
      return;
    }
    this.starting = false;
    const exception = event.reason === "exception" || event.reason === "promiseRejection";
    this.lastException = exception ? (event.data as Protocol.Runtime.RemoteObject | undefined) : undefined;
    this.pause = new PauseInspection(cdp, this.scripts, event);
    const reason = exception ? "exception" : hit ?? (this.resumedBy === "step" ? "step" : this.resumedBy === "pause" ? "pause" : event.reason === "other" ? "breakpoint" : (event.reason as string) === "Break on start" ? "entry" : event.reason);
    const description = exception ? exceptionLine(this.lastException) : reason === "breakpoint" && !hit ? "a debugger statement" : undefined;
    this.resumedBy = "continue";
    this.dap.event("stopped", { reason, threadId: THREAD_ID, allThreadsStopped: true, ...(description ? { description, text: description } : {}) });
  }

  /**
   * A caught exception thrown by tsx or esbuild (tsx stats a tsconfig.json that is not there, in
   * every folder up from the program) or by node's own modules alone: with "all" exceptions on, each
   * stopped the program before its first line. The thrower is the first frame outside node's own
   * modules; a caught exception the program's code provoked in node's modules (a stat of its own in
   * a try) still stops.
   */
  private thrownAndCaughtByTooling(event: Protocol.Debugger.PausedEvent): boolean {
    if (event.reason !== "exception" || (event.data as { uncaught?: boolean } | undefined)?.uncaught !== false) return false;
    // A paused frame's own url is empty in node 20: the script's, as parsed, names it.
    const thrower = event.callFrames.map((frame) => this.scripts.url(frame.location.scriptId) ?? "").find((url) => !url.startsWith("node:"));
    // No frame outside node's own modules: node threw and caught it itself (its ES module loader's `new URL` tries).
    return thrower === undefined || TOOLING_SCRIPT.test(thrower);
  }

  private async resume(by: "step" | "continue", method: "Debugger.resume" | "Debugger.stepOver" | "Debugger.stepInto" | "Debugger.stepOut"): Promise<undefined> {
    this.paused();
    this.resumedBy = by;
    await this.inspector().send(method, {});
    return undefined;
  }

  private async setExceptions(filters: readonly string[]): Promise<DebugProtocol.SetExceptionBreakpointsResponse["body"]> {
    this.exceptionState = filters.includes("all") ? "all" : filters.includes("uncaught") ? "uncaught" : "none";
    await this.inspector().send("Debugger.setPauseOnExceptions", { state: this.exceptionState });
    return { breakpoints: filters.map(() => ({ verified: true })) };
  }

  private async functionBreakpoints(specs: DebugProtocol.FunctionBreakpoint[]): Promise<DebugProtocol.Breakpoint[]> {
    const answers = await this.book().setFunctions(specs.map((spec) => ({ name: spec.name, ...(spec.condition ? { condition: spec.condition } : {}), ...(spec.hitCondition ? { hitCondition: spec.hitCondition } : {}) })));
    return answers;
  }

  private exceptionInfo(): DebugProtocol.ExceptionInfoResponse["body"] {
    const thrown = this.lastException;
    if (!thrown) throw new DapRefusal("the program did not stop at an exception");
    const exceptionId = thrown.className ?? thrown.type;
    const line = exceptionLine(thrown);
    // An Error's first line starts with its class ("TypeError: bad input"): the id says that already.
    const description = line.startsWith(`${exceptionId}: `) ? line.slice(exceptionId.length + 2) : line;
    return { exceptionId, description, breakMode: this.exceptionState === "all" ? "always" : "unhandled" };
  }

  private async disconnect(terminate: boolean): Promise<undefined> {
    const cdp = this.cdp;
    if (terminate) {
      this.child?.kill("SIGKILL");
    } else if (cdp && !cdp.closedWhy) {
      // Let go so that the program runs on: nothing of ours may halt it once no client listens.
      await this.book().clearAll();
      await cdp.send("Debugger.setPauseOnExceptions", { state: "none" }).catch(() => undefined);
      if (this.pause) await cdp.send("Debugger.resume", {}).catch(() => undefined);
      await cdp.send("Debugger.disable").catch(() => undefined);
    }
    this.ended = true;
    cdp?.close();
    return undefined;
  }

  private programEnded(exitCode: number | undefined): void {
    if (this.ended) return;
    this.ended = true;
    if (exitCode !== undefined) this.dap.event("exited", { exitCode });
    this.dap.event("terminated");
  }

  /** A line of the adapter's own about the program (a worker it cannot debug), on stderr beside the program's output. */
  private note(text: string): void {
    process.stderr.write(`[sidecar debugger] ${text}\n`);
  }

  private inspector(): CdpClient {
    if (!this.cdp) throw new DapRefusal("no program is launched or attached yet");
    return this.cdp;
  }

  private book(): Breakpoints {
    if (!this.breakpoints) throw new DapRefusal("no program is launched or attached yet");
    return this.breakpoints;
  }

  private paused(): PauseInspection {
    if (!this.pause) throw new DapRefusal("the program is not stopped");
    return this.pause;
  }
}

/** "TypeError: x is not a function": the exception's first line (an Error's description is its stack). */
function exceptionLine(thrown: Protocol.Runtime.RemoteObject | undefined): string {
  if (!thrown) return "an exception";
  if (thrown.type === "object" && thrown.description) return thrown.description.split("\n")[0]!;
  return `${thrown.type === "string" ? JSON.stringify(thrown.value) : thrown.description ?? String(thrown.value)} (thrown, not an Error)`;
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal ? constants.signals[signal] ?? 0 : 0;
}
