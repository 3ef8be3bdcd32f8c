// The tools the official conformance suite's server scenarios call by name, defined the way every
// sidecar tool is (defineTool, valibot, the one wrapper), for the conformance run only: they never
// ship. Each answers what its scenario documents.
import * as v from "valibot";
import { ToolFailure } from "../src/answer/failure.ts";
import type { RunLog } from "../src/log/log.ts";
import { defineTool, type Tool } from "../src/tool/define.ts";
import type { ElicitationForm } from "../src/tool/elicitation.ts";

/** How long test_reconnection works: long enough for its client to lose the stream and resume it. */
export const RECONNECTION_WORK_MS = 1_500;

/** A 1×1 red PNG. */
const RED_PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

const noArguments = v.strictObject({});
const noData = v.object({});

/** The scenarios' tools; `log` is the run's, which a session that set a logging level hears. */
export function conformanceTools(log: RunLog): Tool[] {
  return [...FIXED_TOOLS, loggingTool(log), ...ELICITING_TOOLS];
}

/** Asks the calling client the given form (through `ctx.elicit`, as ask_user does) and tells what the person did. */
function elicitingTool(name: string, input: v.GenericSchema, form: (input: { message?: string }) => ElicitationForm): Tool {
  return defineTool({
    name,
    tier: "read",
    description: "Asks the calling client's user to fill a form in (conformance suite).",
    input: input as typeof noArguments,
    output: noData,
    async run(args, ctx) {
      if (!ctx.elicit) throw new ToolFailure("The client did not declare elicitation, so nothing can be asked through it.");
      const answer = await ctx.elicit.ask(form(args as { message?: string }), ctx.signal, 30_000);
      const content = answer.action === "accept" ? answer.content : {};
      return { text: `User response: action=${answer.action}, content=${JSON.stringify(content)}`, data: {} };
    },
  });
}

const text = (description: string) => ({ type: "string" as const, description });
const choices = (prefix: string, title: string) => [1, 2, 3].map((n) => ({ const: `${prefix}${n}`, title: `${title} ${n}` }));

const ELICITING_TOOLS: Tool[] = [
  elicitingTool("test_elicitation", v.strictObject({ message: v.string() }), ({ message }) => ({
    message: message!,
    requestedSchema: { type: "object", properties: { username: text("User's response"), email: text("User's email address") }, required: ["username", "email"] },
  })),
  elicitingTool("test_elicitation_sep1330_enums", noArguments, () => ({
    message: "Choose in each of the five kinds of enum",
    requestedSchema: {
      type: "object",
      properties: {
        untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
        titledSingle: { type: "string", oneOf: choices("value", "Option") },
        legacyEnum: { type: "string", enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
        untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
        titledMulti: { type: "array", items: { anyOf: choices("value", "Choice") } },
      },
    },
  })),
  elicitingTool("test_elicitation_sep1034_defaults", noArguments, () => ({
    message: "Accept with the defaults",
    requestedSchema: {
      type: "object",
      properties: {
        name: { ...text("User name"), default: "John Doe" },
        age: { type: "integer", description: "User age", default: 30 },
        score: { type: "number", description: "User score", default: 95.5 },
        status: { ...text("User status"), enum: ["active", "inactive", "pending"], default: "active" },
        verified: { type: "boolean", description: "Verification status", default: true },
      },
    },
  })),
];

/** Logs three lines at info, 50 ms apart, while it runs, each naming its surface so that its own sessions hear them. */
function loggingTool(log: RunLog): Tool {
  return defineTool({
    name: "test_tool_with_logging",
    tier: "read",
    description: "Logs three lines at info level while it runs (conformance suite).",
    input: noArguments,
    output: noData,
    async run(_input, ctx) {
      for (const [index, line] of ["Tool execution started", "Tool processing data", "Tool execution completed"].entries()) {
        if (index > 0) await Bun.sleep(50);
        log.info("conformance.logging", line, { surface: ctx.surface });
      }
      return { text: "Logged three lines at info level.", data: {} };
    },
  });
}

const FIXED_TOOLS: Tool[] = [
  defineTool({
    name: "test_simple_text",
    tier: "read",
    description: "Answers a fixed line of text (conformance suite).",
    input: noArguments,
    output: noData,
    async run() {
      return { text: "This is a simple text response for testing.", data: {} };
    },
  }),
  defineTool({
    name: "test_image_content",
    tier: "read",
    description: "Answers a 1x1 PNG image (conformance suite).",
    input: noArguments,
    output: noData,
    async run() {
      return { text: "A 1x1 red pixel.", data: {}, images: [{ data: RED_PIXEL, mimeType: "image/png" }] };
    },
  }),
  defineTool({
    name: "test_error_handling",
    tier: "read",
    description: "Always fails (conformance suite).",
    input: noArguments,
    output: noData,
    async run() {
      throw new ToolFailure("This tool intentionally returns an error for testing");
    },
  }),
  defineTool({
    name: "test_tool_with_progress",
    tier: "read",
    description: "Reports progress 0, 50 and 100 of 100, 50 ms apart (conformance suite).",
    input: noArguments,
    output: noData,
    async run(_input, ctx) {
      for (const progress of [0, 50, 100]) {
        ctx.progress({ progress, total: 100 });
        if (progress < 100) await Bun.sleep(50);
      }
      return { text: "Progress reported at 0, 50 and 100 of 100.", data: {} };
    },
  }),
  defineTool({
    name: "test_reconnection",
    tier: "read",
    description: "Works for a moment, while its client's stream is cut and resumed (conformance suite).",
    input: noArguments,
    output: noData,
    async run() {
      await Bun.sleep(RECONNECTION_WORK_MS);
      return { text: "Reconnection test completed.", data: {} };
    },
  }),
];
