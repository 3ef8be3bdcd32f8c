// A DAP client over any byte stream pair (a child's stdio or a TCP socket): framing, requests, events.
import type { Readable, Writable } from "node:stream";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { frame, takeFrames } from "./framing.ts";

/** How long one request may wait for its response before the call reports a stuck adapter. */
const REQUEST_TIMEOUT_MS = 30_000;

type EventListener = (event: DebugProtocol.Event) => void;

/** Answers a reverse request (the adapter asking the client): success, or a refusal with its reason. */
type ReverseRequestHandler = (request: DebugProtocol.Request) => { success: true } | { success: false; message: string };

export class DapRequestError extends Error {
  constructor(
    readonly command: string,
    message: string,
  ) {
    super(message);
    this.name = "DapRequestError";
  }
}

interface Pending {
  command: string;
  resolve(response: DebugProtocol.Response): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** One conversation with one debug adapter. Closed when the stream ends or `close()` is called. */
export class DapConnection {
  private seq = 1;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<EventListener>();
  private closedReason: string | undefined;
  private reverseHandler: ReverseRequestHandler | undefined;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {
    input.on("data", (chunk: Buffer) => this.receive(chunk));
    input.on("close", () => this.close("the debug adapter closed its connection"));
    input.on("error", (error) => this.close(`the debug adapter connection failed: ${error.message}`));
    output.on("error", (error) => this.close(`writing to the debug adapter failed: ${error.message}`));
  }

  get closed(): string | undefined {
    return this.closedReason;
  }

  onEvent(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Who answers the adapter's reverse requests (startDebugging); without one every one is declined. */
  onReverseRequest(handler: ReverseRequestHandler): void {
    this.reverseHandler = handler;
  }

  /** Sends a request and resolves with the response body; a `success: false` answer rejects. */
  async request<R extends DebugProtocol.Response>(
    command: string,
    args?: unknown,
    timeoutMs = REQUEST_TIMEOUT_MS,
  ): Promise<R["body"]> {
    if (this.closedReason) throw new DapRequestError(command, `Cannot send ${command}: ${this.closedReason}.`);
    const seq = this.seq++;
    const response = await new Promise<DebugProtocol.Response>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(seq);
        reject(new DapRequestError(command, `The debug adapter did not answer ${command} within ${timeoutMs} ms.`));
      }, timeoutMs);
      this.pending.set(seq, { command, resolve, reject, timer });
      this.write({ seq, type: "request", command, arguments: args });
    });
    if (!response.success) {
      const detail = (response.body as { error?: DebugProtocol.Message } | undefined)?.error;
      const text = detail ? formatMessage(detail) : response.message || "no reason given";
      throw new DapRequestError(command, `The debug adapter refused ${command}: ${text}`);
    }
    return response.body;
  }

  /** Rejects every pending request and stops listening; idempotent. */
  close(reason = "the debug session was closed"): void {
    if (this.closedReason) return;
    this.closedReason = reason;
    for (const [seq, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new DapRequestError(pending.command, `${pending.command} was not answered: ${reason}.`));
      this.pending.delete(seq);
    }
    this.emit({ seq: 0, type: "event", event: "sidecar/closed", body: { reason } });
    this.listeners.clear();
  }

  private write(message: object): void {
    this.output.write(frame(message));
  }

  private receive(chunk: Buffer): void {
    const { bodies, rest, broken } = takeFrames(Buffer.concat([this.buffer, chunk]));
    this.buffer = rest;
    for (const body of bodies) {
      let message: DebugProtocol.ProtocolMessage;
      try {
        message = JSON.parse(body) as DebugProtocol.ProtocolMessage;
      } catch {
        continue; // one garbled frame is skipped; the framing itself is still intact
      }
      this.dispatch(message);
    }
    if (broken !== undefined) this.close(`the debug adapter sent a frame without Content-Length (${JSON.stringify(broken)})`);
  }

  private dispatch(message: DebugProtocol.ProtocolMessage): void {
    if (message.type === "response") {
      const response = message as DebugProtocol.Response;
      const pending = this.pending.get(response.request_seq);
      if (!pending) return;
      this.pending.delete(response.request_seq);
      clearTimeout(pending.timer);
      pending.resolve(response);
    } else if (message.type === "event") {
      this.emit(message as DebugProtocol.Event);
    } else if (message.type === "request") {
      // Reverse requests (runInTerminal, startDebugging): declined unless a handler takes them.
      const request = message as DebugProtocol.Request;
      const answer = this.reverseHandler?.(request) ?? { success: false, message: `sidecar does not support the ${request.command} reverse request` };
      this.write({
        seq: this.seq++,
        type: "response",
        request_seq: request.seq,
        command: request.command,
        ...answer,
      });
    }
  }

  private emit(event: DebugProtocol.Event): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}

function formatMessage(message: DebugProtocol.Message): string {
  return message.format.replace(/\{(\w+)\}/g, (_, key: string) => message.variables?.[key] ?? `{${key}}`);
}
