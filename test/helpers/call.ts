// Calls a tool through the official MCP SDK client the way a model's client does: it lists the tools
// first, so the SDK checks every result's structuredContent against that tool's output schema (a
// client that never listed them checks nothing, and a result that broke its schema passed).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ErrorShape } from "../../src/answer/error-codes.ts";

/** A first call may wait for a language server, an adapter or a kernel to start on a loaded machine; the test's own timeout is the bound that matters. */
const CALL_TIMEOUT_MS = 180_000;

export interface Called {
  /** The text blocks, joined by newlines. */
  text: string;
  /** structuredContent ({} when the tool sent none). */
  data: Record<string, any>;
  isError: boolean;
  /** An error's readable part (docs/harness.md, "Errors a program can read"), when isError. */
  error?: ErrorShape;
  /** Every content block as sent (images included). */
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
}

const listed = new WeakSet<Client>();

export async function call(client: Client, name: string, args: Record<string, unknown> = {}, options: RequestOptions = {}): Promise<Called> {
  if (!listed.has(client)) {
    await client.listTools();
    listed.add(client);
  }
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS, ...options });
  const content = result.content as Called["content"];
  const data = (result.structuredContent ?? {}) as Record<string, any>;
  const isError = result.isError === true;
  return {
    text: content.filter((block) => block.type === "text").map((block) => block.text).join("\n"),
    data,
    isError,
    ...(isError && data.error ? { error: data.error as ErrorShape } : {}),
    content,
  };
}

/** Calls the tool and fails the test with the tool's own words when it answered isError. */
export async function ok(client: Client, name: string, args: Record<string, unknown> = {}, options: RequestOptions = {}): Promise<Record<string, any>> {
  const result = await call(client, name, args, options);
  if (result.isError) throw new Error(`${name} ${JSON.stringify(args)} failed: ${result.text}`);
  return result.data;
}
