// Registration as data: a tool group exists only when the run has its resource (SPEC.md's table).
import type { Tool } from "../tool/define.ts";
import type { RunServices } from "../run/services.ts";
import { askUserTool } from "./ask-user.ts";

export function toolsForRun(services: RunServices): Tool[] {
  const { questions } = services;
  return [
    ...(questions?.space ? [askUserTool(questions.desk, questions.space)] : []),
  ];
}
