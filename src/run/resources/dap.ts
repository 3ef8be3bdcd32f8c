// The debug-adapter resource (config `debugAdapters`): the debug tool, one session per conversation.
import { connect } from "../../dap/connect.ts";
import { debugAdapterChecks } from "../../dap/doctor.ts";
import type { DebugSupervisor } from "../../dap/supervisor.ts";
import type { GlanceRow, GlanceSection } from "../../console/glance.ts";
import type { SyntaxService } from "../../syntax/service.ts";
import { debugTool } from "../../tools/debug.ts";
import { joined, processFacts } from "./glance-text.ts";
import { defineResource, type RunFacts } from "./resource.ts";

type Peers = RunFacts & { syntax?: SyntaxService };

export const dap = defineResource({
  name: "dap",
  configKey: "debugAdapters",
  settings: (resources) => resources.debugAdapters,
  connect,
  // The parser, when the run has one, checks breakpoint lines.
  tools: (dap: DebugSupervisor, { conversation, syntax }: Peers) => (conversation ? [debugTool(dap, syntax)] : []),
  toolsNeed: "debug needs a conversation",
  glance: (dap, { conversation }) => (conversation ? [sessionSection(dap)] : []),
  doctor: { label: "debug adapters", check: debugAdapterChecks },
});

function sessionSection(dap: DebugSupervisor): GlanceSection {
  const session = dap.currentSession();
  const rows: GlanceRow[] = session
    ? [
        {
          name: session.label,
          state: session.state,
          detail: joined([
            session.live ? processFacts(session.programPid, "program pid") : undefined,
            session.live ? `ends in ${Math.ceil(dap.ttlLeft(session) / 60_000)} min unless used (TTL)` : undefined,
          ]),
        },
      ]
    : [];
  return { title: "Debug session", rows, empty: "No debug session: the debug tool's launch or attach starts one." };
}
