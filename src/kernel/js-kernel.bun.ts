// The JavaScript kernel: the sidecar binary re-executed as `sidecar __kernel-js`, running cells with
// Bun's REPL-mode transpiler (TypeScript, top-level await, re-declaration, imports across cells).
import { read, readSync, writeSync } from "node:fs";
import type { Console as NodeConsole } from "node:console";
import { createRequire } from "node:module";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { inspect } from "node:util";
import * as vm from "node:vm";
import { cellPosition } from "./cell-positions.ts";
import type { KernelMessage, MimeBundle, SidecarMessage, ToolResultMessage } from "./protocol.ts";

/** The launcher's fd shuffle puts the protocol here; fds 1 and 2 lead to the sidecar's raw stream. */
const PROTOCOL_IN = 3;
const PROTOCOL_OUT = 4;
const RAW_OUT = 2;
const INSPECT_OPTIONS = { depth: 4, maxArrayLength: 100, maxStringLength: 20_000, breakLength: 100 } as const;
/** How long a write to a full protocol pipe backs off before retrying. */
const WRITE_RETRY_MS = 5;

class ToolError extends Error {
  override name = "ToolError";
}
class ToolDenied extends ToolError {
  override name = "ToolDenied";
}
class Interrupted extends Error {
  override name = "KeyboardInterrupt";
}
// The binary is minified: without this, a cell's `e.constructor.name` or `ToolError.name` read "ap".
for (const [type, name] of [[ToolError, "ToolError"], [ToolDenied, "ToolDenied"], [Interrupted, "KeyboardInterrupt"]] as const) {
  Object.defineProperty(type, "name", { value: name });
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function writeAll(fd: number, text: string): void {
  let bytes = Buffer.from(text, "utf8");
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      Atomics.wait(sleeper, 0, 0, WRITE_RETRY_MS);
    }
  }
}

function send(message: KernelMessage): void {
  writeAll(PROTOCOL_OUT, `${JSON.stringify(message)}\n`);
}

/** Lines from the sidecar; async between cells, blocking inside tool() (no async read is pending then). */
class ProtocolReader {
  private buffer = "";
  private readonly chunk = Buffer.alloc(65_536);

  private take(): string | undefined {
    const end = this.buffer.indexOf("\n");
    if (end === -1) return undefined;
    const line = this.buffer.slice(0, end);
    this.buffer = this.buffer.slice(end + 1);
    return line;
  }

  async next(): Promise<string | null> {
    for (;;) {
      const line = this.take();
      if (line !== undefined) return line;
      const count = await new Promise<number>((resolve, reject) =>
        read(PROTOCOL_IN, this.chunk, 0, this.chunk.length, null, (error, n) => (error ? reject(error) : resolve(n))),
      );
      if (count === 0) return null;
      this.buffer += this.chunk.toString("utf8", 0, count);
    }
  }

  nextSync(): string | null {
    for (;;) {
      const line = this.take();
      if (line !== undefined) return line;
      let count: number;
      try {
        count = readSync(PROTOCOL_IN, this.chunk, 0, this.chunk.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
        Atomics.wait(sleeper, 0, 0, WRITE_RETRY_MS);
        continue;
      }
      if (count === 0) return null;
      this.buffer += this.chunk.toString("utf8", 0, count);
    }
  }
}

const reader = new ProtocolReader();
let cellRunning = false;
let interruptCell: ((error: Interrupted) => void) | undefined;
let callIds = 0;

/** One huge write still travels in bounded lines, so the sidecar never holds it whole. */
const STREAM_PIECE_CHARS = 64 * 1024;

function stream(name: "stdout" | "stderr", text: string): void {
  // Tagged when written: a timer's output between cells stays background output however late it is read.
  const between = cellRunning ? {} : { between: true };
  for (let start = 0; start < text.length; start += STREAM_PIECE_CHARS) send({ type: "stream", name, text: text.slice(start, start + STREAM_PIECE_CHARS), ...between });
}

/** Everything `console` has, routed through one Console writing to the protocol. */
const CONSOLE_METHODS = [
  "log", "info", "debug", "warn", "error", "trace", "dir", "dirxml", "table", "group", "groupCollapsed", "groupEnd",
  "count", "countReset", "time", "timeEnd", "timeLog", "assert",
] as const;

type StreamName = "stdout" | "stderr";

/**
 * Routes `console` and `process.stdout`/`stderr` into the protocol, each built on its first use:
 * node:console, node:stream and the process's own stdout stream took about 60 ms of every kernel's
 * start (bench/eval.ts), and many cells never print.
 */
function captureConsole(): void {
  // One decoder per stream: a character split across two Buffer writes must not become U+FFFD.
  const decoders = { stdout: new StringDecoder("utf8"), stderr: new StringDecoder("utf8") };
  const text = (name: StreamName, chunk: string | Uint8Array) => (typeof chunk === "string" ? chunk : decoders[name].write(Buffer.from(chunk)));
  const write = (name: StreamName) =>
    function (chunk: string | Uint8Array, ...rest: unknown[]): boolean {
      stream(name, text(name, chunk));
      const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      done?.();
      return true;
    };
  const sink = (name: StreamName) =>
    new (require("node:stream") as typeof import("node:stream")).Writable({
      decodeStrings: false,
      write(chunk: string | Uint8Array, _encoding, done) {
        stream(name, text(name, chunk));
        done();
      },
    });
  let captured: NodeConsole | undefined;
  const real = (): NodeConsole => {
    if (captured) return captured;
    // Node's own Console keeps table, group indentation, count and time: the methods replaced one by
    // one printed console.table after later lines and lost the indentation.
    const { Console } = require("node:console") as typeof import("node:console");
    const made = new Console({ stdout: sink("stdout"), stderr: sink("stderr"), inspectOptions: INSPECT_OPTIONS });
    for (const method of CONSOLE_METHODS) Object.assign(console, { [method]: made[method].bind(made) });
    return (captured = made);
  };
  for (const method of CONSOLE_METHODS) {
    Object.assign(console, { [method]: (...args: unknown[]) => (real()[method] as (...values: unknown[]) => unknown)(...args) });
  }
  // The process's own stream is replaced rather than patched: reading it is what loads it. The
  // replacement keeps what callers look at (write, fd, isTTY, and a stream's events for pipe()).
  for (const [name, fd] of [["stdout", 1], ["stderr", 2]] as const) {
    let replacement: NodeJS.WriteStream | undefined;
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: true,
      get: () => (replacement ??= Object.assign(sink(name), { write: write(name), fd, isTTY: false }) as unknown as NodeJS.WriteStream),
    });
  }
}

function mimeBundle(value: unknown): MimeBundle {
  const bundle: MimeBundle = {};
  const object = value as { _repr_png_?: () => unknown; _repr_markdown_?: () => unknown } | null;
  if (object && (typeof object === "object" || typeof object === "function")) {
    const png = typeof object._repr_png_ === "function" ? object._repr_png_() : undefined;
    if (png instanceof Uint8Array) bundle["image/png"] = Buffer.from(png).toString("base64");
    else if (typeof png === "string") bundle["image/png"] = png;
    const markdown = typeof object._repr_markdown_ === "function" ? object._repr_markdown_() : undefined;
    if (typeof markdown === "string") bundle["text/markdown"] = markdown;
  }
  bundle["text/plain"] = typeof value === "string" ? JSON.stringify(value) : inspect(value, INSPECT_OPTIONS);
  return bundle;
}

function display(...values: unknown[]): void {
  for (const value of values) send({ type: "display", data: mimeBundle(value) });
}

/** Well under the sidecar's 64 Mi-character limit on a kernel message, which drops longer ones. */
const TOOL_ARGS_MAX_CHARS = 16 * 1024 * 1024;

/** Checks a bridged call's arguments and sends it; the id to match its answer with. */
function sendToolCall(name: string, args: Record<string, unknown>, caller: string): number {
  if (typeof name !== "string" || name === "") {
    throw new TypeError(`${caller}(name, args): name must be a tool name string, e.g. ${caller}("read", {path: "README.md"})`);
  }
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new TypeError(`${caller}(${JSON.stringify(name)}, args): args must be an object of the tool's arguments`);
  }
  if (!cellRunning) throw new ToolError(`${caller}() can only be called while a cell runs, not from background work between cells.`);
  const encoded = JSON.stringify(args);
  if (encoded.length > TOOL_ARGS_MAX_CHARS) {
    throw new RangeError(`${caller}(${JSON.stringify(name)}, args): the arguments are ${encoded.length} characters of JSON; a bridged call takes at most ${TOOL_ARGS_MAX_CHARS}. Write large data to a file and pass its path.`);
  }
  const id = ++callIds;
  send({ type: "tool_call", id, name, args });
  return id;
}

function settled(message: ToolResultMessage): unknown {
  if (message.ok) return message.result;
  throw message.denied ? new ToolDenied(message.message) : new ToolError(message.message);
}

/** Calls one of the harness's tools; blocks the kernel (its event loop too) until the answer arrives. */
function tool(name: string, args: Record<string, unknown> = {}): unknown {
  // A blocking read would race the read that waits for the atool() answers.
  if (pendingCalls.size > 0) {
    throw new ToolError(`tool() blocks the kernel, and ${pendingCalls.size} atool() call(s) are still pending: await them first, or use await atool(...) here too.`);
  }
  const id = sendToolCall(name, args, "tool");
  for (;;) {
    const line = reader.nextSync();
    if (line === null) process.exit(0);
    const message = JSON.parse(line) as SidecarMessage;
    if (message.type === "tool_result" && message.id === id) return settled(message);
  }
}

/** atool() calls waiting for their answers, by call id. */
const pendingCalls = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
/** Messages read while waiting for atool() answers that are no answer (the next cell): the main loop takes them. */
const unclaimed: SidecarMessage[] = [];
/** The one read of the protocol in flight, shared by the main loop and the atool() pump. */
let reading: Promise<boolean> | undefined;

/** Reads one message: an answer goes to its atool() call, anything else to the main loop. False at end of input. */
function readMessage(): Promise<boolean> {
  reading ??= reader
    .next()
    .then((line) => {
      if (line === null) return false;
      if (!line.trim()) return true;
      const message = JSON.parse(line) as SidecarMessage;
      const pending = message.type === "tool_result" ? pendingCalls.get(message.id) : undefined;
      if (message.type === "tool_result") {
        pendingCalls.delete(message.id);
        if (pending) {
          try {
            pending.resolve(settled(message));
          } catch (error) {
            pending.reject(error);
          }
        }
      } else unclaimed.push(message);
      return true;
    })
    .finally(() => (reading = undefined));
  return reading;
}

/** Reads while atool() calls wait; stops once none does, so a blocking tool() has the protocol to itself. */
let pumping = false;
async function pumpAnswers(): Promise<void> {
  if (pumping) return;
  pumping = true;
  try {
    while (pendingCalls.size > 0) {
      if (!(await readMessage())) process.exit(0); // the sidecar went away
    }
  } finally {
    pumping = false;
  }
}

/** tool() for async code: the call is sent at once and several run at the same time (Promise.all). */
function atool(name: string, args: Record<string, unknown> = {}): Promise<unknown> {
  try {
    const id = sendToolCall(name, args, "atool");
    const answer = new Promise<unknown>((resolve, reject) => pendingCalls.set(id, { resolve, reject }));
    void pumpAnswers();
    return answer;
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Frames from the cell inwards; the kernel's own frames (outside any cell) and the cell's wrapper call are dropped. */
function formatError(error: unknown): { ename: string; evalue: string; traceback: string } {
  if (!(error instanceof Error)) {
    const text = inspect(error, INSPECT_OPTIONS);
    return { ename: "Uncaught", evalue: text, traceback: `Uncaught ${text}\n` };
  }
  if (error.constructor?.name === "BuildMessage") return syntaxError(error as Error & { position?: BuildPosition });
  const name = error.name;
  const frames = (error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
  const last = frames.findLastIndex((line) => line.includes("<cell ") && !isWrapperCall(line));
  // Frames of this kernel (tool(), display()) say nothing about the user's code.
  const kept = (last === -1 ? [] : frames.slice(0, last + 1)).filter((line) => !line.includes(import.meta.path) && !line.includes("$bunfs")).map(inCellTerms);
  return { ename: name, evalue: error.message, traceback: [`${name}: ${error.message}`, ...kept].join("\n") + "\n" };
}

interface BuildPosition {
  line: number;
  column: number;
  lineText: string;
}

/** The transpiler's error knows where in the cell it broke; say it as Python does, with a caret. */
function syntaxError(error: Error & { position?: BuildPosition }): { ename: string; evalue: string; traceback: string } {
  const at = error.position;
  const where = at ? ` (line ${at.line}, column ${at.column})` : "";
  const shown = at ? `\n    ${at.lineText}\n    ${" ".repeat(Math.max(0, at.column - 1))}^` : "";
  return { ename: "SyntaxError", evalue: `${error.message}${where}`, traceback: `SyntaxError: ${error.message}${where}${shown}\n` };
}

/** Cells as written and as compiled, by count: a stack frame gives the compiled cell's line. */
const cellPrograms = new Map<number, { written: string[]; compiled: string[] }>();
const KEPT_CELL_PROGRAMS = 50;

const CELL_FRAME = /<cell (\d+)>:(\d+):(\d+)/;

/** The compiled cell's last line calls the wrapper the transpiler put around it: no line of the cell. */
function isWrapperCall(frame: string): boolean {
  const at = CELL_FRAME.exec(frame);
  if (!at) return false;
  return cellPrograms.get(Number(at[1]))?.compiled[Number(at[2]) - 1]?.trim() === "})();";
}

/**
 * A frame at the line and column of the cell as the model wrote it (src/kernel/cell-positions.ts),
 * with that line's code; when the compiled line cannot be placed in the cell, the position is said
 * to be the compiled cell's and the compiled code is shown.
 */
function inCellTerms(frame: string): string {
  const at = CELL_FRAME.exec(frame);
  const program = at && cellPrograms.get(Number(at[1]));
  if (!at || !program) return frame;
  const [whole, count, line, column] = at;
  const placed = cellPosition(program.written, program.compiled, Number(line), Number(column));
  if (placed) return `${frame.replace(whole, `<cell ${count}>:${placed.line}:${placed.column}`)} — in: ${shortened(placed.code)}`;
  const compiled = program.compiled[Number(line) - 1]?.trim();
  return `${frame.replace(whole, `${whole} of the compiled cell`)}${compiled ? ` — in: ${shortened(compiled)}` : ""}`;
}

function shortened(code: string): string {
  const trimmed = code.trim();
  return trimmed.length > 120 ? `${trimmed.slice(0, 120)}…` : trimmed;
}

const transpiler = new Bun.Transpiler({ loader: "ts", replMode: true });
const importModuleDynamically = vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER;

async function runCell(message: Extract<SidecarMessage, { type: "execute" }>): Promise<void> {
  const started = performance.now();
  let status: "ok" | "error" | "interrupted" = "ok";
  cellRunning = true;
  // A cell awaiting something nothing else keeps alive (`await new Promise(() => {})`, a stdin
  // read) would otherwise leave Bun's loop empty: the kernel exited mid-cell and lost its state.
  const keepAlive = setInterval(() => {}, 2 ** 30);
  try {
    const interrupted = new Promise<never>((_, reject) => (interruptCell = reject));
    const program = transpiler.transformSync(message.code);
    cellPrograms.set(message.count, { written: message.code.split("\n"), compiled: program.split("\n") });
    if (cellPrograms.size > KEPT_CELL_PROGRAMS) cellPrograms.delete(cellPrograms.keys().next().value!);
    const completion = vm.runInThisContext(program, {
      filename: `<cell ${message.count}>`,
      importModuleDynamically,
    } as vm.RunningScriptOptions) as unknown;
    const wrapped = (await Promise.race([Promise.resolve(completion), interrupted])) as { value?: unknown } | undefined;
    const value = wrapped && typeof wrapped === "object" && "value" in wrapped ? wrapped.value : undefined;
    if (value !== undefined) {
      (globalThis as Record<string, unknown>)._ = value;
      send({ type: "display", data: mimeBundle(value), result: true });
    }
  } catch (error) {
    status = error instanceof Interrupted ? "interrupted" : "error";
    send({ type: "error", ...formatError(error) });
  } finally {
    clearInterval(keepAlive);
    cellRunning = false;
    interruptCell = undefined;
  }
  // Output written straight to fds 1/2 (subprocesses) travels apart; the mark tells the sidecar it has all of it.
  writeAll(RAW_OUT, `\x00sidecar-sync-${message.count}\x00`);
  send({ type: "done", id: message.id, count: message.count, status, seconds: (performance.now() - started) / 1000, flush: String(message.count) });
}

export async function runJavaScriptKernel(): Promise<number> {
  captureConsole();
  // require() for CommonJS habits, resolved from the working directory like the cells' imports.
  const require = createRequire(join(process.cwd(), "<cell>"));
  Object.assign(globalThis, { display, tool, atool, ToolError, ToolDenied, require });
  // SIGINT stops an awaiting cell; a busy synchronous loop cannot be interrupted, and the sidecar then kills the group.
  process.on("SIGINT", () => interruptCell?.(new Interrupted("the cell was interrupted")));
  process.on("unhandledRejection", (reason) => stream("stderr", `Unhandled promise rejection: ${formatError(reason).traceback}`));
  process.on("uncaughtException", (error) => stream("stderr", `Uncaught exception: ${formatError(error).traceback}`));
  send({ type: "ready", interpreter: "sidecar", version: `Bun ${Bun.version}`, pid: process.pid });
  for (;;) {
    const message = unclaimed.shift();
    if (message === undefined) {
      if (!(await readMessage())) return 0; // the sidecar went away
      continue;
    }
    if (message.type === "execute") await runCell(message);
  }
}
