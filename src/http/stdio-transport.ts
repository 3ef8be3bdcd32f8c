// MCP over stdio: one JSON-RPC message per line on stdin, answers on stdout. Unlike the SDK's
// stdio transport it ends at end of input, and answers a line it cannot read with a JSON-RPC error
// instead of dropping it.
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** The longest line read as one message: the same bound as an HTTP request body. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** How long closing waits for what was written to leave, when the reader may be gone. */
const FLUSH_TIMEOUT_MS = 2_000;

const NEWLINE = 0x0a;

export class StdioTransport implements Transport {
  onmessage?: Transport["onmessage"];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Inside a line past the bound: skipped up to its newline. */
  private skipping = false;
  private closed = false;
  private readonly ended = Promise.withResolvers<void>();

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {}

  /** Resolves once the session is over: end of input, the output gone, or close(). */
  get done(): Promise<void> {
    return this.ended.promise;
  }

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.once("end", this.onEnd);
    this.input.once("error", this.onEnd);
    // The client went away (EPIPE): nobody will read another answer.
    this.output.once("error", this.onEnd);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("error", this.onEnd);
    this.input.pause();
    // What was written reaches the client before the session reports itself over.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, FLUSH_TIMEOUT_MS);
      this.output.write("", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.onclose?.();
    this.ended.resolve();
  }

  private readonly onEnd = () => void this.close();

  private readonly onData = (chunk: Buffer | string) => {
    let rest = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    for (let newline = rest.indexOf(NEWLINE); newline >= 0; newline = rest.indexOf(NEWLINE)) {
      this.take(rest.subarray(0, newline));
      this.finishLine();
      rest = rest.subarray(newline + 1);
    }
    this.take(rest);
  };

  private take(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    if (this.pendingBytes + part.length > MAX_LINE_BYTES) {
      this.skipping = true;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    this.pending.push(part);
    this.pendingBytes += part.length;
  }

  private finishLine(): void {
    if (this.skipping) {
      this.skipping = false;
      this.refuse(ErrorCode.InvalidRequest, `Invalid Request: a line longer than ${MAX_LINE_BYTES} bytes was skipped; send one JSON-RPC message per line, each under that bound.`);
      return;
    }
    const line = Buffer.concat(this.pending).toString("utf8").replace(/\r$/, "");
    this.pending = [];
    this.pendingBytes = 0;
    if (line.trim() === "") return;
    this.deliver(line);
  }

  private deliver(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.refuse(ErrorCode.ParseError, `Parse error: a line is not JSON (${JSON.stringify(line.slice(0, 60))}${line.length > 60 ? "…" : ""}); send one JSON-RPC message per line.`);
      return;
    }
    if (Array.isArray(value)) {
      this.refuse(ErrorCode.InvalidRequest, "Invalid Request: a JSON-RPC batch; over stdio send each message on its own line.");
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(value);
    if (!message.success) {
      const id = (value as { id?: unknown } | null)?.id;
      this.refuse(ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 message; send {\"jsonrpc\": \"2.0\", \"id\", \"method\", \"params\"}.", typeof id === "string" || typeof id === "number" ? id : null);
      return;
    }
    this.onmessage?.(message.data);
  }

  private refuse(code: number, text: string, id: string | number | null = null): void {
    // The SDK's message type has no null id; JSON-RPC answers an unreadable request with one.
    void this.send({ jsonrpc: "2.0", id, error: { code, message: text } } as unknown as JSONRPCMessage);
  }
}
