// Turns where a server comes from into a launch (installing it first when it is missing and on npm), or into the sentence that says why not.
import { ToolFailure } from "../answer/failure.ts";
import { relativeToWorkdir } from "../workspace/paths.ts";
import { shownPath } from "../workspace/shown-path.ts";
import type { ProjectChecker, ServerSpec } from "./catalog.ts";
import { checkerFromInstall, findChecker, findServer, serverFromInstall, type LaunchContext, type Lookup, type ProgramLaunch, type ServerLaunch } from "./launch.ts";

/** A missing server whose install failed: the message says what to do about the registry, not about the binary. */
export class InstallFailed extends Error {
  /** `cacheDir`: set when the install cache itself could not be written, not the registry reached. */
  constructor(
    message: string,
    readonly cacheDir?: string,
  ) {
    super(message);
  }
}

/** File-system errors that mean the install cache cannot be written (the registry is not the cause). */
const UNWRITABLE_CACHE = new Set(["EACCES", "EPERM", "EROFS", "ENOTDIR", "ENOSPC", "EDQUOT"]);

/** How the root's project checker runs (installed first when it comes with an npm server); an Error's message says why it cannot. */
export async function checkerLaunchFor(spec: ServerSpec, checker: ProjectChecker, root: string, ctx: LaunchContext): Promise<ProgramLaunch> {
  const lookup = findChecker(spec, checker, root, ctx);
  switch (lookup.kind) {
    case "found":
      return lookup.launch;
    case "refused":
      throw new Error(lookup.reason);
    case "missing":
      throw new Error(`${lookup.reason}${skippedText(lookup.skipped)}; install it: ${spec.installHint}`);
    case "installable":
      if (ctx.provisioner.policy === "never") throw new Error(neverInstalled(spec, lookup, ctx));
      return checkerFromInstall(spec, checker, await ctx.provisioner.install(spec), ctx);
  }
}

/** How a server's start-up looks before it is started: for `lsp status` and `doctor`. */
interface SourceRow {
  state: "found" | "installing" | "installable" | "unavailable";
  reason: string;
  source?: string;
}

/**
 * The launch for (spec, root): found as is, or installed now (progress goes to the provisioner's
 * listeners). A ToolFailure says why there is none: untrusted, not found, or install "never".
 */
export async function launchFor(spec: ServerSpec, root: string, ctx: LaunchContext): Promise<ServerLaunch> {
  const lookup = findServer(spec, root, ctx);
  const named = `The ${spec.id} server for ${shownPath(relativeToWorkdir(ctx.workdir, root))}`;
  switch (lookup.kind) {
    case "found":
      return lookup.launch;
    case "refused":
      throw new ToolFailure(`${named} is ${lookup.reason}.`, { code: "server_unavailable" });
    case "missing":
      throw new ToolFailure(`${named} cannot start: ${lookup.reason}${skippedText(lookup.skipped)}. Install it (${spec.installHint}) or set resources.languageServers.servers.${spec.id}.command.`, { code: "server_unavailable" });
    case "installable": {
      if (ctx.provisioner.policy === "never") throw new ToolFailure(`${named} cannot start: ${neverInstalled(spec, lookup, ctx)}.`, { code: "server_unavailable" });
      let dir: string;
      try {
        dir = await ctx.provisioner.install(spec);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw new InstallFailed((error as Error).message, code && UNWRITABLE_CACHE.has(code) ? ctx.provisioner.cache.root : undefined);
      }
      return serverFromInstall(spec, dir, ctx);
    }
  }
}

/** The row `status` shows before starting anything: a found server is then probed by starting it. */
export function describeSource(spec: ServerSpec, root: string, ctx: LaunchContext): SourceRow & { lookup: Lookup<ServerLaunch> } {
  const lookup = findServer(spec, root, ctx);
  switch (lookup.kind) {
    case "found":
      return { lookup, state: "found", reason: "", source: lookup.launch.source };
    case "refused":
      return { lookup, state: "unavailable", reason: lookup.reason };
    case "missing":
      return { lookup, state: "unavailable", reason: `${lookup.reason}${skippedText(lookup.skipped)}; install it: ${spec.installHint}` };
    case "installable": {
      const installing = ctx.provisioner.installing(spec);
      if (installing) return { lookup, state: "installing", reason: installing };
      if (ctx.provisioner.policy === "never") return { lookup, state: "unavailable", reason: neverInstalled(spec, lookup, ctx) };
      return { lookup, state: "installable", reason: `not installed yet: ${lookup.plan.key} installs from npm into ${ctx.provisioner.cache.root} on first use${skippedText(lookup.skipped)}` };
    }
  }
}

/** The message for a failed install, with what to do. */
export function installFailedText(spec: ServerSpec, rel: string, error: InstallFailed): string {
  if (error.cacheDir) {
    return `The ${spec.id} server for ${rel} could not be installed: its install cache ${shownPath(error.cacheDir)} cannot be written (${error.message}). Point resources.languageServers.cacheDir at a writable folder, or install it by hand (${spec.installHint}); lsp reload retries.`;
  }
  return `The ${spec.id} server for ${rel} could not be installed: ${error.message}. Check that the npm registry is reachable, or install it by hand (${spec.installHint}); lsp reload retries.`;
}

function neverInstalled(spec: ServerSpec, lookup: Extract<Lookup<unknown>, { kind: "installable" }>, ctx: LaunchContext): string {
  return `not installed, and resources.languageServers.install is "never": run \`sidecar servers install ${spec.id}\` (installs ${lookup.plan.key} into ${ctx.provisioner.cache.root}) or ${spec.installHint}${skippedText(lookup.skipped)}`;
}

export function skippedText(skipped: readonly string[]): string {
  return skipped.length ? `; ${skipped.join("; ")}` : "";
}
