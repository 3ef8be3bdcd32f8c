// The NDJSON protocol between the sidecar and a kernel (Python driver or JS kernel), both ways.

/** A rendered value: "text/plain" always, plus "text/markdown" and/or "image/png" (base64). */
export type MimeBundle = Partial<Record<"text/plain" | "text/markdown" | "image/png", string>>;

export type KernelMessage =
  | { type: "ready"; interpreter: string; version: string; pid: number }
  /** `between`: written while no cell ran (a background thread), however late it arrives. */
  | { type: "stream"; name: "stdout" | "stderr"; text: string; between?: boolean }
  | { type: "display"; data: MimeBundle; result?: boolean }
  | { type: "error"; ename: string; evalue: string; traceback: string }
  | { type: "done"; id: number; count: number; status: "ok" | "error" | "interrupted"; seconds: number; flush?: string }
  | { type: "tool_call"; id: number; name: string; args: Record<string, unknown> };

export type SidecarMessage =
  | { type: "execute"; id: number; count: number; code: string }
  | ToolResultMessage;

export type ToolResultMessage =
  | { type: "tool_result"; id: number; ok: true; result: unknown }
  | { type: "tool_result"; id: number; ok: false; denied: boolean; message: string };

export function encodeMessage(message: SidecarMessage | KernelMessage): string {
  return `${JSON.stringify(message)}\n`;
}

/**
 * A kernel's protocol line is at most this long. The drivers send output in small pieces, so only a
 * huge display (an image) comes near it; past it the line is dropped rather than held in memory.
 */
export const MAX_PROTOCOL_LINE_CHARS = 64 * 1024 * 1024;

/**
 * Splits a byte stream into lines; a partial line waits for the rest. Linear in the input: only
 * the new chunk is searched, and the pieces of a long line are joined once, when it ends.
 */
export class LineSplitter {
  private pieces: string[] = [];
  private pendingChars = 0;
  /** Characters of the current line dropped because it passed MAX_PROTOCOL_LINE_CHARS. */
  private dropping = 0;
  private readonly decoder = new TextDecoder();

  /** `onOversized` is told the size of each line dropped for passing the bound. */
  constructor(private readonly onOversized: (chars: number) => void = () => {}) {}

  push(chunk: Uint8Array): string[] {
    const text = this.decoder.decode(chunk, { stream: true });
    const lastNewline = text.lastIndexOf("\n");
    if (lastNewline < 0) {
      this.hold(text);
      return [];
    }
    const firstNewline = text.indexOf("\n");
    const lines: string[] = [];
    this.hold(text.slice(0, firstNewline));
    if (this.dropping) this.onOversized(this.dropping);
    else lines.push(this.pieces.join(""));
    this.pieces = [];
    this.pendingChars = this.dropping = 0;
    if (lastNewline > firstNewline) lines.push(...text.slice(firstNewline + 1, lastNewline).split("\n"));
    this.hold(text.slice(lastNewline + 1));
    return lines.filter((line) => line.trim() !== "");
  }

  private hold(text: string): void {
    if (!text) return;
    if (this.dropping || this.pendingChars + text.length > MAX_PROTOCOL_LINE_CHARS) {
      this.dropping += this.pendingChars + text.length;
      this.pieces = [];
      this.pendingChars = 0;
      return;
    }
    this.pieces.push(text);
    this.pendingChars += text.length;
  }
}

/** Parses one kernel line; a line that is not a protocol message is reported, never thrown. */
export function parseKernelMessage(line: string): KernelMessage | undefined {
  try {
    const message = JSON.parse(line) as KernelMessage;
    return message && typeof message === "object" && typeof message.type === "string" ? message : undefined;
  } catch {
    return undefined;
  }
}
