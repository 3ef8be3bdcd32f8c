// The one wrapper every tool call goes through: validate once, run, shape the MCP result.
import * as v from "valibot";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { issueText } from "../validation/issue-text.ts";
import { type Tool, type ToolContext, type ToolReply } from "./define.ts";
import { ToolFailure } from "../answer/failure.ts";
import { capText } from "./budget.ts";
import { describeArguments } from "./json-schema.ts";

/**
 * The most text any answer carries. Each tool bounds its own output well below this (the largest,
 * a debug session's output, at 64 KB); this is the backstop for a bound a tool forgot, so that no
 * call can put an unbounded text in front of the model.
 */
export const MAX_ANSWER_TEXT_BYTES = 128 * 1024;

/** Runs `tool` on raw client arguments and always answers with a CallToolResult — never throws. */
export async function invokeTool(tool: Tool, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
  const parsed = v.safeParse(tool.input, args ?? {});
  if (!parsed.success) return errorResult(invalidArgumentsMessage(tool, parsed.issues));
  try {
    const reply = await tool.run(parsed.output, ctx);
    return replyResult(reply);
  } catch (error) {
    if (ctx.signal.aborted) return errorResult(`The ${tool.name} call was cancelled before it finished.`);
    if (error instanceof ToolFailure) return errorResult(error.message, error.details);
    const message = (error instanceof Error ? error.message : String(error)).replace(/\.+$/, "");
    return errorResult(`${tool.name} failed unexpectedly: ${message}. This is a sidecar bug; the call may be retried.`);
  }
}

function replyResult(reply: ToolReply<unknown>): CallToolResult {
  const content: CallToolResult["content"] = [{ type: "text", text: boundedText(reply.text) }];
  for (const image of reply.images ?? []) content.push({ type: "image", data: image.data, mimeType: image.mimeType });
  // A reply's data matches the tool's outputSchema (run() is typed so), error or not.
  const result: CallToolResult = { content, structuredContent: asRecord(reply.data) };
  return reply.isError ? { ...result, isError: true } : result;
}

/**
 * Error results carry text only: MCP clients validate any structuredContent against the tool's
 * outputSchema, error or not, and an error shape would fail that check and hide the message.
 * Details a failure names travel in `_meta` for harnesses that want fields.
 */
function errorResult(message: string, details: Record<string, unknown> = {}): CallToolResult {
  const result: CallToolResult = { content: [{ type: "text", text: boundedText(message) }], isError: true };
  return Object.keys(details).length ? { ...result, _meta: { "sidecar/details": details } } : result;
}

/** The text as is, or cut in the middle to MAX_ANSWER_TEXT_BYTES with a line saying so. */
function boundedText(text: string): string {
  const capped = capText(text, MAX_ANSWER_TEXT_BYTES);
  if (capped.cutBytes === 0) return text;
  return `${capped.text}\n(This answer was ${Buffer.byteLength(text)} bytes, over the ${MAX_ANSWER_TEXT_BYTES} every answer is held to; the middle was cut. Narrow the call to see the rest.)`;
}

function asRecord(data: unknown): Record<string, unknown> {
  return data !== null && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : { value: data };
}

/** Words a validation failure for the model: each problem with its argument path, then a correct shape. */
export function invalidArgumentsMessage(tool: Tool, issues: readonly v.BaseIssue<unknown>[]): string {
  const problems = issues.map((issue) => {
    const path = v.getDotPath(issue) ?? "(arguments)";
    if (issue.type === "strict_object" && issue.expected === "never") return `- ${path}: unknown argument; ${tool.name} does not take it`;
    return `- ${path}: ${issueText(issue)}`;
  });
  return [
    `Invalid arguments for ${tool.name}:`,
    ...problems,
    `Expected arguments: ${describeArguments(tool.input)}`,
  ].join("\n");
}
