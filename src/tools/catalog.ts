// Registration as data: a tool group exists only when the run has its resource (SPEC.md's table).
import type { Tool } from "../tool/define.ts";
import type { RunServices } from "../run/services.ts";

export function toolsForRun(_services: RunServices): Tool[] {
  return [];
}
