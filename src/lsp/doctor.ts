// Doctor rows for language servers: the same per (server, root) table as `lsp status`, found by starting them.
import type { DoctorGroup } from "../doctor/check.ts";
import { LanguageServerSupervisor } from "./supervisor.ts";

export const languageServerChecks: DoctorGroup = async ({ workdir, resources }) => {
  const supervisor = new LanguageServerSupervisor(workdir, resources?.languageServers);
  try {
    const rows = await supervisor.status();
    return rows.map((row) => {
      const name = row.root && row.root !== "." ? `${row.server} (${row.root})` : row.server;
      // No root marker anywhere: this checkout has no such project, so nothing is missing.
      if (row.root === null) return { group: "language servers", name, ok: false, unused: true, detail: row.reason };
      // "idle" here means found but not started: only the first few roots of a server are probed.
      const ok = row.state === "running" || row.state === "idle";
      return {
        group: "language servers",
        name,
        ok,
        detail: row.state === "running" ? `${row.command}: answered initialize` : `${row.state}: ${row.reason}`,
        ...(ok ? {} : { hint: hintFor(row.reason, row.server) }),
      };
    });
  } finally {
    await supervisor.close();
  }
};

function hintFor(reason: string, server: string): string {
  if (reason.startsWith("no root marker")) return "nothing to serve here; the server starts once the project has its marker file";
  if (reason.startsWith("binary not found")) return `install it (see docs/lsp.md) or set resources.languageServers.servers.${server}.command`;
  return `run the command in the root by hand to see the full error; then \`lsp reload\``;
}
