// Registration as data: a tool group exists only when the run has its resource (SPEC.md's table).
import type { Tool } from "../tool/define.ts";
import type { RunServices } from "../run/services.ts";
import { debugTool } from "./debug.ts";

export function toolsForRun(services: RunServices): Tool[] {
  const { debug, workdir, conversation } = services;
  return [
    ...(debug && workdir && conversation ? [debugTool(debug, conversation)] : []),
  ];
}
