// The NDJSON protocol between the sidecar and a kernel (Python driver or JS kernel), both ways.

/** A rendered value: "text/plain" always, plus "text/markdown" and/or "image/png" (base64). */
export type MimeBundle = Partial<Record<"text/plain" | "text/markdown" | "image/png", string>>;

export type KernelMessage =
  | { type: "ready"; interpreter: string; version: string; pid: number }
  | { type: "stream"; name: "stdout" | "stderr"; text: string }
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

/** Splits a byte stream into lines; a partial line waits for the rest. */
export class LineSplitter {
  private pending = "";
  private readonly decoder = new TextDecoder();

  push(chunk: Uint8Array): string[] {
    this.pending += this.decoder.decode(chunk, { stream: true });
    const lines = this.pending.split("\n");
    this.pending = lines.pop() ?? "";
    return lines.filter((line) => line.trim() !== "");
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
