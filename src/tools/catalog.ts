// Registration as data: a tool group exists only when the run has its resource (SPEC.md's table).
import type { Tool } from "../tool/define.ts";
import type { RunServices } from "../run/services.ts";
import { astEditTool } from "./ast-edit.ts";
import { astGrepTool } from "./ast-grep.ts";
import { resolveTool } from "./resolve.ts";

export function toolsForRun(services: RunServices): Tool[] {
  return [...(services.syntax ? [astGrepTool(services.syntax), astEditTool(services.syntax), resolveTool(services.syntax)] : [])];
}
