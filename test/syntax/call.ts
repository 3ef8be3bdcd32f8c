// Calls a tool through the official MCP client and returns its text, structured data and error flag.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

export interface Called {
  text: string;
  data: Record<string, unknown>;
  isError: boolean;
}

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Called> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
  return { text, data: (result.structuredContent ?? {}) as Record<string, unknown>, isError: result.isError === true };
}
