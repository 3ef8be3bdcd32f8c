// The five vibe_* tools of one roster, built once: tools/list asks for them on every call.
import type { Tool } from "../tool/define.ts";
import type { WorkerRoster } from "../workers/roster.ts";
import { vibeKillTool } from "./vibe-kill.ts";
import { vibeListTool } from "./vibe-list.ts";
import { vibeSendTool } from "./vibe-send.ts";
import { vibeSpawnTool } from "./vibe-spawn.ts";
import { vibeWaitTool } from "./vibe-wait.ts";

const built = new WeakMap<WorkerRoster, Tool[]>();

export function vibeTools(roster: WorkerRoster): Tool[] {
  let tools = built.get(roster);
  if (!tools) {
    tools = [vibeSpawnTool(roster), vibeSendTool(roster), vibeWaitTool(roster), vibeKillTool(roster), vibeListTool(roster)];
    built.set(roster, tools);
  }
  return tools;
}
