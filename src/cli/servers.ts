// `sidecar servers install|list|remove`: the language-server install cache from the command line (pre-provisioning, baking an image).
import { BUILTIN_SERVERS, type ServerSpec } from "../lsp/catalog.ts";
import { defaultCacheDir, formatBytes, installPlanOf, type InstallPlan } from "../lsp/provision/cache.ts";
import { sidecarBun } from "../lsp/provision/bun.ts";
import { ServerProvisioner } from "../lsp/provision/provisioner.ts";
import { TRUST_ALL } from "../platform/executables.ts";
import { UsageError, type CliFlags } from "./args.ts";

const NPM_SERVERS = BUILTIN_SERVERS.filter((spec) => spec.npm);

/** `rest` is [ACTION, SERVER…], checked against the command table (src/cli/commands.ts). */
export async function serversCommand(rest: readonly string[], flags: CliFlags): Promise<number> {
  const [action, ...names] = rest;
  const cacheDir = flags["cache-dir"] ?? defaultCacheDir();
  if (!cacheDir.startsWith("/")) throw new UsageError(`--cache-dir needs an absolute path, got ${JSON.stringify(cacheDir)}.`);
  if (action !== "list" && names.length === 0 && !flags.all) throw new UsageError(`\`servers ${action}\` needs server ids or --all, e.g. \`sidecar servers ${action} typescript python\`. Run \`sidecar servers --help\`.`);
  const provisioner = new ServerProvisioner(cacheDir, "auto", BUILTIN_SERVERS, sidecarBun(TRUST_ALL)); // managing the cache, outside any workspace
  if (action === "install") return install(provisioner, selected(names, flags.all === true));
  if (action === "remove") return remove(provisioner, names, flags.all === true);
  return list(provisioner);
}

/** The npm servers named (or all), refusing an unknown id or one the sidecar does not install. */
function selected(names: readonly string[], all: boolean): ServerSpec[] {
  if (all) return NPM_SERVERS;
  return names.map((name) => {
    const spec = BUILTIN_SERVERS.find((s) => s.id === name);
    if (!spec) throw new UsageError(`No server ${JSON.stringify(name)} in the catalog. Installable: ${NPM_SERVERS.map((s) => s.id).join(", ")}.`);
    if (!spec.npm) throw new UsageError(`The ${name} server is not installed by the sidecar (it is not on npm): ${spec.installHint}.`);
    return spec;
  });
}

function list(provisioner: ServerProvisioner): number {
  const { cache } = provisioner;
  const cached = new Map(cache.list().map((entry) => [entry.key, entry]));
  const plans = uniquePlans(NPM_SERVERS);
  process.stdout.write(`Install cache: ${cache.root}\n\n`);
  for (const plan of plans) {
    const entry = cached.get(plan.key);
    cached.delete(plan.key);
    const state = cache.installed(plan) ? `installed, ${formatBytes(entry!.bytes)}` : entry ? "incomplete or outdated (installs again on first use)" : "not installed (installs on first use)";
    process.stdout.write(`  ${plan.key.padEnd(40)} ${plan.servers.join(", ").padEnd(16)} ${state}\n`);
    // The install's name is a server id and its first package's version (typescript@5.3.0 is the
    // language server, python@1.1.414 is pyright); what it brings is each package at its pin.
    process.stdout.write(`      packages: ${Object.entries(plan.packages).map(([name, version]) => `${name} ${version}`).join(", ")}\n`);
  }
  for (const entry of cached.values()) {
    process.stdout.write(`  ${entry.key.padEnd(40)} ${"".padEnd(16)} not in this sidecar's catalog, ${formatBytes(entry.bytes)} (sidecar servers remove ${entry.key})\n`);
  }
  const others = BUILTIN_SERVERS.filter((spec) => !spec.npm).map((spec) => spec.id);
  process.stdout.write(`\nNot installed by the sidecar (from PATH or a configured command): ${others.join(", ")}.\n`);
  return 0;
}

async function install(provisioner: ServerProvisioner, specs: readonly ServerSpec[]): Promise<number> {
  const stop = provisioner.onProgress((message) => process.stderr.write(`sidecar: ${message}\n`));
  let failed = 0;
  try {
    for (const plan of uniquePlans(specs)) {
      const spec = specs.find((s) => plan.servers.includes(s.id))!;
      try {
        const dir = await provisioner.install(spec);
        process.stdout.write(`${plan.key}: installed in ${dir} (${plan.servers.join(", ")})\n`);
      } catch (error) {
        failed += 1;
        process.stdout.write(`${plan.key}: not installed: ${(error as Error).message}\n`);
      }
    }
  } finally {
    stop();
  }
  return failed ? 1 : 0;
}

function remove(provisioner: ServerProvisioner, names: readonly string[], all: boolean): number {
  const { cache } = provisioner;
  const keys = all ? cache.list().map((entry) => entry.key) : names.map((name) => (name.includes("@") ? name : installPlanOf(selected([name], false)[0]!, BUILTIN_SERVERS)!.key));
  for (const key of [...new Set(keys)]) {
    let removed: boolean;
    try {
      removed = cache.remove(key);
    } catch (error) {
      throw new UsageError(`${(error as Error).message}; \`sidecar servers list\` shows the installs.`);
    }
    process.stdout.write(`${key}: ${removed ? "removed" : "was not installed"}\n`);
  }
  return 0;
}

/** One plan per install (html, css and json share one). */
function uniquePlans(specs: readonly ServerSpec[]): InstallPlan[] {
  const plans = new Map<string, InstallPlan>();
  for (const spec of specs) {
    const plan = installPlanOf(spec, BUILTIN_SERVERS)!;
    plans.set(plan.key, plan);
  }
  return [...plans.values()];
}
