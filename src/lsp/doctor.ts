// Doctor rows for language servers: the same per (server, root) table as `lsp status`, found by starting them, and the install cache.
import type { DoctorGroup } from "../doctor/check.ts";
import { buildCatalog } from "./catalog.ts";
import { defaultCacheDir, formatBytes } from "./provision/cache.ts";
import { programTrust } from "../platform/executables.ts";
import { sidecarBun } from "./provision/bun.ts";
import { ServerProvisioner } from "./provision/provisioner.ts";
import { LanguageServerSupervisor } from "./supervisor.ts";

export const languageServerChecks: DoctorGroup = async (ctx) => [...(await serverRows(ctx)), ...(await serverCacheChecks(ctx))];

const serverRows: DoctorGroup = async ({ workdir, resources, trust }) => {
  const supervisor = new LanguageServerSupervisor(workdir, resources?.languageServers, { trust });
  try {
    const rows = await supervisor.probe();
    return rows.map((row) => {
      const name = row.root && row.root !== "." ? `${row.server} (${row.root})` : row.server;
      // Files of its language but no root marker: they go unserved until one is added (a warning, not a broken machine).
      if (row.root === null && row.unrootedFile) return { group: "language servers", name, ok: false, optional: true, detail: row.reason, hint: `add one of ${markersOf(supervisor, row.server)} at the top of the project` };
      // No root marker (or none of its files) anywhere: this checkout has no such project, so nothing is missing.
      if (row.root === null) return { group: "language servers", name, ok: false, unused: true, detail: row.reason };
      // "idle" here means found but not started (only the first few roots are probed), or not installed
      // yet and installed on first use.
      const ok = row.state === "running" || row.state === "idle" || row.state === "installing";
      const running = `${row.source ?? row.command}: answered initialize${row.reason ? `; ${row.reason}` : ""}`;
      return {
        group: "language servers",
        name,
        ok,
        detail: row.state === "running" ? running : `${row.state}: ${row.reason}`,
        ...(ok ? {} : { hint: hintFor(row.reason, row.server) }),
      };
    });
  } finally {
    await supervisor.close();
  }
};

/** The install cache: where it is, and each npm server installed or not, with its size. Nothing is installed. */
const serverCacheChecks: DoctorGroup = async ({ resources, workdir, trust }) => {
  const settings = resources?.languageServers;
  const catalog = buildCatalog(settings);
  const provisioner = new ServerProvisioner(settings?.cacheDir ?? defaultCacheDir(), settings?.install ?? "auto", catalog, sidecarBun(programTrust(trust ?? "none", workdir)));
  const { cache } = provisioner;
  const sizes = new Map(cache.list().map((entry) => [entry.key, entry.bytes]));
  const how = provisioner.bun ? `installs with ${provisioner.bun.description}` : "nothing to install with: no Bun";
  const rows = [{ group: "language server cache", name: "cache", ok: provisioner.bun !== undefined, detail: `${cache.root} (${how}; install "${provisioner.policy}")` }];
  const seen = new Set<string>();
  for (const spec of catalog) {
    const plan = provisioner.plan(spec);
    if (!plan || seen.has(plan.key)) continue;
    seen.add(plan.key);
    const installed = cache.installed(plan) !== undefined;
    const detail = installed ? `installed, ${formatBytes(sizes.get(plan.key) ?? 0)}` : provisioner.policy === "auto" ? "not installed; installs from npm on first use" : 'not installed; install is "never"';
    rows.push({ group: "language server cache", name: plan.key, ok: installed || provisioner.policy === "auto", detail: `${detail} (${plan.servers.join(", ")}: ${packagesOf(plan.packages)})` });
  }
  return rows;
};

/** typescript@5.3.0 names the language server's version; the TypeScript it brings is another pin. */
function packagesOf(packages: Readonly<Record<string, string>>): string {
  return Object.entries(packages).map(([name, version]) => `${name} ${version}`).join(", ");
}

function markersOf(supervisor: LanguageServerSupervisor, server: string): string {
  return supervisor.catalog.find((spec) => spec.id === server)!.rootMarkers.join(", ");
}

function hintFor(reason: string, server: string): string {
  if (reason.includes("not trusted")) return 'the workspace is not trusted; a harness whose user trusts it passes "trust": "workspace" in the run config';
  if (reason.startsWith("not installed")) return `sidecar servers install ${server}`;
  if (reason.startsWith("binary not found")) return `install it (see docs/lsp.md) or set resources.languageServers.servers.${server}.command`;
  if (reason.startsWith("install failed")) return "check that the npm registry is reachable; `lsp reload` retries";
  return `run the command in the root by hand to see the full error; then \`lsp reload\``;
}
