// Registration as data: a tool group exists only when the run has its resource (SPEC.md's table).
import type { Tool } from "../tool/define.ts";
import type { RunServices } from "../run/services.ts";
import { askUserTool } from "./ask-user.ts";
import { evalTool } from "./eval.ts";
import { lspRenameTool } from "./lsp-rename.ts";
import { lspTool } from "./lsp.ts";
import { vibeTools } from "./vibe-tools.ts";

export function toolsForRun(services: RunServices): Tool[] {
  const { questions, languageServers } = services;
  return [
    ...(languageServers ? [lspTool(languageServers), lspRenameTool(languageServers)] : []),
    ...(services.kernels ? [evalTool(services.kernels)] : []),
    ...(questions?.space ? [askUserTool(questions.desk, questions.space)] : []),
    // Vibe mode is switched during the run (POST /harness/vibe); tools/list asks again each time.
    ...(services.workers?.isOn ? vibeTools(services.workers) : []),
  ];
}
