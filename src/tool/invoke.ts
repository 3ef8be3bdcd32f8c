// The one wrapper every tool call goes through: validate once, run, shape the MCP result.
import * as v from "valibot";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { issueText, MISSING } from "../validation/issue-text.ts";
import { type Tool, type ToolContext, type ToolReply } from "./define.ts";
import type { ErrorCode } from "../answer/error-codes.ts";
import { errorShape } from "../answer/error-schema.ts";
import { ToolFailure } from "../answer/failure.ts";
import { capText, capValue } from "./budget.ts";
import { chosenBranch, describeArguments, jsonSchemaOf, keysAt } from "./json-schema.ts";

/**
 * The most text any answer carries. Each tool bounds its own output well below this (the largest,
 * a debug session's output, at 64 KB); this is the backstop for a bound a tool forgot, so that no
 * call can put an unbounded text in front of the model.
 */
export const MAX_ANSWER_TEXT_BYTES = 128 * 1024;

/** Where a result names the files its call changed (`ToolReply.written`). */
export const WRITTEN_META = "sidecar/written";

/** The message an error's structuredContent repeats, at most; the text content has all of it (a cell's traceback). */
const MAX_ERROR_MESSAGE_CHARS = 2_000;

/** Runs `tool` on raw client arguments and always answers with a CallToolResult — never throws. */
export async function invokeTool(tool: Tool, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
  const parsed = v.safeParse(tool.input, args ?? {});
  if (!parsed.success) {
    return errorResult("invalid_arguments", invalidArgumentsMessage(tool, parsed.issues, args), { problems: problemsOf(tool, parsed.issues, args) });
  }
  try {
    const reply = await tool.run(parsed.output, ctx);
    return replyResult(reply);
  } catch (error) {
    if (ctx.signal.aborted) return errorResult("cancelled", `The ${tool.name} call was cancelled before it finished.`);
    if (error instanceof ToolFailure) return errorResult(error.code, error.message, error.details);
    const message = (error instanceof Error ? error.message : String(error)).replace(/\.+$/, "");
    return errorResult("internal_error", `${tool.name} failed unexpectedly: ${message}. This is a sidecar bug; the call may be retried.`);
  }
}

function replyResult(reply: ToolReply<unknown>): CallToolResult {
  const content: CallToolResult["content"] = [{ type: "text", text: boundedText(reply.text) }];
  for (const image of reply.images ?? []) content.push({ type: "image", data: image.data, mimeType: image.mimeType });
  // A reply's data matches the tool's outputSchema (run() is typed so); an error reply keeps its
  // fields and adds the error shape, the schema's other branch.
  const data = asRecord(reply.data);
  const meta = reply.written?.length ? { _meta: { [WRITTEN_META]: reply.written } } : {};
  if (!reply.isError) return { content, structuredContent: data, ...meta };
  const error = errorShape(reply.errorCode ?? "failed", capValue(reply.text, MAX_ERROR_MESSAGE_CHARS));
  return { content, structuredContent: { ...data, error }, isError: true };
}

/**
 * An error result: the message as text, and `{error: {code, message, details?}}` as
 * structuredContent, which every tool's outputSchema admits (`answer/error-schema.ts`), so a client
 * that validates it against the schema, as the SDK's does on errors too, accepts it.
 */
function errorResult(code: ErrorCode, message: string, details: Record<string, unknown> = {}): CallToolResult {
  const error = errorShape(code, capValue(message, MAX_ERROR_MESSAGE_CHARS), details);
  return { content: [{ type: "text", text: boundedText(message) }], structuredContent: { error }, isError: true };
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

/** Each validation problem as data: where (a dot path) and what, in words. */
function problemsOf(tool: Tool, issues: readonly v.BaseIssue<unknown>[], args: unknown): { path: string; problem: string }[] {
  return issues.map((issue) => ({ path: v.getDotPath(issue) ?? "", problem: problemText(tool, issue, args) }));
}

/**
 * One problem in words. An unknown key names the key and what its object takes, where valibot
 * says `Invalid key: Expected never but received "bogus"`. A tool whose input is one object per
 * operation (a variant) says which operation needs, or does not take, the argument.
 */
function problemText(tool: Tool, issue: v.BaseIssue<unknown>, args: unknown): string {
  const chosen = chosenBranch(tool.input, args);
  const keys = (issue.path ?? []).map((item) => String(item.key));
  if (chosen && keys.length === 1 && issueText(issue) === MISSING) return `missing; ${chosen.value} needs ${keys[0]}`;
  if (issue.type !== "strict_object" || issue.expected !== "never") return issueText(issue);
  const key = keys.pop() ?? "";
  const takes = keysAt(chosen?.branch ?? jsonSchemaOf(tool.input), keys).filter((k) => keys.length > 0 || k !== chosen?.key);
  const taken = takes.length ? takes.map((k) => `\`${k}\``).join(", ") : "no other";
  return keys.length === 0
    ? `unknown argument \`${key}\`; ${chosen ? chosen.value : tool.name} takes ${taken}`
    : `unknown key \`${key}\` in ${keys.join(".")}; it takes ${taken}`;
}

/**
 * Words a validation failure for the model: each problem with its argument path, then a correct
 * shape (of a variant, the shape of the operation the call chose).
 */
function invalidArgumentsMessage(tool: Tool, issues: readonly v.BaseIssue<unknown>[], args?: unknown): string {
  const chosen = chosenBranch(tool.input, args);
  const problems = issues.map((issue) => `- ${v.getDotPath(issue) ?? "(arguments)"}: ${problemText(tool, issue, args)}`);
  return [`Invalid arguments for ${tool.name}${chosen ? ` ${chosen.value}` : ""}:`, ...problems, `Expected arguments: ${describeArguments(tool.input, args)}`].join("\n");
}
