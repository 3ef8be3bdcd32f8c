// Registration as data: a tool group exists only when the run has its resource (SPEC.md's table).
import type { Tool } from "../tool/define.ts";
import type { RunResources } from "./run-resources.ts";
import { askUserTool } from "./ask-user.ts";
import { astEditTool } from "./ast-edit.ts";
import { astGrepTool } from "./ast-grep.ts";
import { debugTool } from "./debug.ts";
import { evalTool } from "./eval.ts";
import { lspRenameTool } from "./lsp-rename.ts";
import { lspTool } from "./lsp.ts";
import { resolveTool } from "./resolve.ts";
import { vibeTools } from "./vibe-tools.ts";

/**
 * Builds each tool once for the run and answers with the ones present right now. Tools are built
 * once because their JSON Schemas are cached per schema object; rebuilding on every tools/list
 * would convert every schema again.
 */
export function toolCatalog(services: RunResources): () => Tool[] {
  const { syntax, questions, languageServers, debug, conversation, kernels, workers } = services;
  const fixed = [
    ...(languageServers ? [lspTool(languageServers), lspRenameTool(languageServers)] : []),
    ...(syntax ? [astGrepTool(syntax), astEditTool(syntax), resolveTool(syntax)] : []),
    ...(debug && conversation ? [debugTool(debug, conversation, syntax)] : []),
    ...(kernels ? [evalTool(kernels)] : []),
    ...(questions?.space ? [askUserTool(questions.desk, questions.space)] : []),
  ];
  const vibe = workers ? vibeTools(workers) : [];
  // Vibe mode is switched during the run (POST /harness/vibe); tools/list asks again each time.
  return () => [...fixed, ...(workers?.isOn ? vibe : [])];
}
