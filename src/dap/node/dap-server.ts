// The adapter's side of DAP over one socket: Content-Length framing, requests in, responses and events out.
import type { Socket } from "node:net";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { frame, takeFrames } from "../framing.ts";

/** A request the adapter refuses: its message reaches the client as the response's `message`. */
export class DapRefusal extends Error {}

type RequestHandler = (command: string, args: unknown) => Promise<unknown>;

export class DapServerConnection {
  private seq = 1;
  private buffer: Buffer = Buffer.alloc(0);

  constructor(
    private readonly socket: Socket,
    private readonly handle: RequestHandler,
  ) {
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    socket.on("error", () => socket.destroy());
  }

  onClose(listener: () => void): void {
    this.socket.once("close", listener);
  }

  event(event: string, body?: unknown): void {
    this.write({ seq: this.seq++, type: "event", event, ...(body !== undefined ? { body } : {}) });
  }

  close(): void {
    this.socket.end();
  }

  private receive(chunk: Buffer): void {
    const { bodies, rest, broken } = takeFrames(Buffer.concat([this.buffer, chunk]));
    this.buffer = rest;
    for (const body of bodies) {
      let request: DebugProtocol.Request;
      try {
        request = JSON.parse(body) as DebugProtocol.Request;
      } catch {
        continue;
      }
      if (request.type === "request") void this.answer(request);
    }
    if (broken !== undefined) this.socket.destroy(); // framing lost: nothing after this can be trusted
  }

  private async answer(request: DebugProtocol.Request): Promise<void> {
    const base = { seq: 0, type: "response", request_seq: request.seq, command: request.command };
    try {
      const body = await this.handle(request.command, request.arguments ?? {});
      this.write({ ...base, seq: this.seq++, success: true, ...(body !== undefined ? { body } : {}) });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.write({ ...base, seq: this.seq++, success: false, message, body: { error: { id: 1, format: message.replace(/[{}]/g, "") } } });
    }
  }

  private write(message: object): void {
    if (!this.socket.destroyed) this.socket.write(frame(message));
  }
}
