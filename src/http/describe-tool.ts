// A tool as MCP's tools/list shows it: JSON Schemas from valibot, annotations from the tier and the tool's own hints.
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { withErrorShape } from "../answer/error-schema.ts";
import type { Tool } from "../tool/define.ts";
import { inputJsonSchemaOf, jsonSchemaOf } from "../tool/json-schema.ts";

export function describeTool(tool: Tool): McpTool {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: inputJsonSchemaOf(tool.input),
    // An error result's structuredContent is the error shape, which clients check against this too.
    outputSchema: withErrorShape(jsonSchemaOf(tool.output)),
    annotations: annotationsOf(tool),
  };
}

/** A client that auto-approves read-only tools relies on these, so a tool's own hints win over its tier's. */
function annotationsOf(tool: Tool): NonNullable<McpTool["annotations"]> {
  const { hints = {} } = tool;
  const openWorld = hints.openWorld ?? tool.tier === "exec";
  return {
    readOnlyHint: hints.readOnly ?? tool.tier === "read",
    destructiveHint: hints.destructive ?? tool.tier !== "read",
    ...(hints.idempotent !== undefined ? { idempotentHint: hints.idempotent } : {}),
    ...(openWorld ? { openWorldHint: true } : {}),
  };
}
