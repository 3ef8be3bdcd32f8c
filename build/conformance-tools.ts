// The tools the official conformance suite's server scenarios call by name, defined the way every
// sidecar tool is (defineTool, valibot, the one wrapper), for the conformance run only: they never
// ship. Each answers what its scenario documents.
import * as v from "valibot";
import { ToolFailure } from "../src/answer/failure.ts";
import type { RunLog } from "../src/log/log.ts";
import { defineTool, type Tool } from "../src/tool/define.ts";

/** How long test_reconnection works: long enough for its client to lose the stream and resume it. */
export const RECONNECTION_WORK_MS = 1_500;

/** A 1×1 red PNG. */
const RED_PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

const noArguments = v.strictObject({});
const noData = v.object({});

/** The scenarios' tools; `log` is the run's, which a session that set a logging level hears. */
export function conformanceTools(log: RunLog): Tool[] {
  return [...FIXED_TOOLS, loggingTool(log)];
}

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
