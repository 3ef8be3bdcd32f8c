// Registration as data: a tool group exists only when the run has its resource (SPEC.md's table).
import type { Tool } from "../tool/define.ts";
import type { RunServices } from "../run/services.ts";
import { lspRenameTool } from "./lsp-rename.ts";
import { lspTool } from "./lsp.ts";

export function toolsForRun(services: RunServices): Tool[] {
  return [
    ...(services.languageServers ? [lspTool(services.languageServers), lspRenameTool(services.languageServers)] : []),
  ];
}
