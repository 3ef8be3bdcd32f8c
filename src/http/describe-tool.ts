// A tool as MCP's tools/list shows it: JSON Schemas from valibot, the tier mapped onto annotations.
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { Tool } from "../tool/define.ts";
import { jsonSchemaOf } from "../tool/json-schema.ts";

export function describeTool(tool: Tool): McpTool {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: jsonSchemaOf(tool.input),
    outputSchema: jsonSchemaOf(tool.output),
    annotations: {
      readOnlyHint: tool.tier === "read",
      destructiveHint: tool.tier !== "read",
      ...(tool.tier === "exec" ? { openWorldHint: true } : {}),
    },
  };
}
