// The language-server resource (config `languageServers`): lsp, lsp_rename, diagnostics on write.
import { connect } from "../../lsp/connect.ts";
import { languageServerChecks } from "../../lsp/doctor.ts";
import { afterWriteRoute } from "../../lsp/harness-route.ts";
import type { LanguageServices } from "../../lsp/service.ts";
import type { GlanceSection } from "../../console/glance.ts";
import { lspRenameTool } from "../../tools/lsp-rename.ts";
import { lspTool } from "../../tools/lsp.ts";
import { cut, joined, processFacts } from "./glance-text.ts";
import { defineResource } from "./resource.ts";

/** Diagnostics rows shown at most (the ledger may hold thousands after a bad write). */
const DIAGNOSTIC_ROWS = 50;

export const lsp = defineResource({
  name: "lsp",
  configKey: "languageServers",
  settings: (resources) => resources.languageServers,
  connect,
  tools: (lsp) => [lspTool(lsp), lspRenameTool(lsp)],
  routes: (lsp) => [afterWriteRoute(lsp)],
  glance: (lsp) => [serverSection(lsp), diagnosticSection(lsp)],
  doctor: { label: "language servers", check: languageServerChecks },
});

function serverSection(lsp: LanguageServices): GlanceSection {
  const rows = lsp.supervisor.started().map((server) => ({
    name: server.server,
    state: server.state,
    detail: joined([`root ${server.root || "."}`, processFacts(server.pid), server.lastError ? `last error: ${cut(server.lastError)}` : undefined]),
  }));
  return { title: "Language servers", rows, empty: "None started yet: a server starts on the first lsp call or write for its language." };
}

function diagnosticSection(lsp: LanguageServices): GlanceSection {
  const findings = lsp.ledger.findings();
  const rows = findings.slice(0, DIAGNOSTIC_ROWS).map((finding) => ({
    // The ledger keys files as the agent's answers name them: relative to the workdir already.
    name: finding.path,
    state: finding.severity,
    detail: `${finding.code ? `[${finding.code}] ` : ""}${cut(finding.message)}${finding.count > 1 ? ` (${finding.count} times)` : ""}`,
  }));
  const more = findings.length > DIAGNOSTIC_ROWS ? `${DIAGNOSTIC_ROWS} of ${findings.length} shown` : undefined;
  return { title: "Diagnostics on write", rows, empty: "None held: the agent has been told of no open diagnostic in the files it wrote.", ...(more ? { note: more } : {}) };
}
