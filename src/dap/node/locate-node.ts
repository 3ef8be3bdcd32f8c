// Finding what the Node.js adapter needs: the sidecar itself (which runs the adapter), node, and tsx.
import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findExecutable, type ProgramTrust } from "../../platform/executables.ts";
import { NODE_ADAPTER_COMMAND } from "./main.ts";

let sidecarCommand: readonly string[] | undefined;

/** How this sidecar runs itself (the runtime's selfCommand): the adapter is the sidecar re-run as `__dap-node`. */
export function useSidecarCommand(command: readonly string[]): void {
  sidecarCommand = command;
}

/** The sidecar from source under Bun, for code that made a supervisor without a run (benches). */
function selfCommand(): readonly string[] {
  return sidecarCommand ?? [process.execPath, fileURLToPath(new URL("../../main.ts", import.meta.url))];
}

type NodeToolsLookup =
  | { ok: true; command: string[]; detail: string }
  | { ok: false; reason: string; hint: string };

/**
 * node from PATH (outside an untrusted workdir); tsx from PATH, or from the project's own
 * node_modules when the workspace is trusted (untrusted, the checkout's packages never run to
 * debug it). Without tsx the adapter still debugs JavaScript and says why TypeScript cannot run.
 */
export function findNodeTools(root: string, trust: ProgramTrust): NodeToolsLookup {
  const node = findExecutable("node", { trust });
  if (!node) return { ok: false, reason: "`node` is not on PATH", hint: "install Node.js 20 or later (apt install nodejs) so `node` is on PATH" };
  const tsx = tsxLoader(root, trust);
  const command = [...selfCommand(), NODE_ADAPTER_COMMAND, "--node", node, ...(tsx.loader ? ["--tsx-loader", tsx.loader] : [])];
  return { ok: true, command, detail: `${node}; ${tsx.words}; Bun programs are not debuggable (Bun's inspector speaks WebKit's protocol, not V8's)` };
}

/** tsx's ESM loader (`--import` makes node run .ts files through it), and words for `adapters`. */
function tsxLoader(root: string, trust: ProgramTrust): { loader?: string; words: string } {
  const onPath = findExecutable("tsx", { trust });
  const fromPath = onPath ? loaderOf(packageRootOf(onPath)) : undefined;
  if (fromPath) return { loader: fromPath, words: `TypeScript through tsx at ${dirname(dirname(fromPath))}` };
  const project = join(root, "node_modules", "tsx");
  if (existsSync(project)) {
    if (!trust.workspace) return { words: "TypeScript programs need tsx: the project's node_modules/tsx was not used because the workspace is not trusted; put tsx on PATH (npm install -g tsx) or trust the workspace" };
    const loader = loaderOf(project);
    if (loader) return { loader, words: `TypeScript through the project's tsx (${project})` };
  }
  return { words: "TypeScript programs need tsx, which is not on PATH (npm install -g tsx)" };
}

/** `.../node_modules/.bin/tsx` or `/usr/bin/tsx` is a link to `<package>/dist/cli.mjs`. */
function packageRootOf(bin: string): string | undefined {
  try {
    return dirname(dirname(realpathSync(bin)));
  } catch {
    return undefined;
  }
}

function loaderOf(packageRoot: string | undefined): string | undefined {
  const loader = packageRoot && join(packageRoot, "dist", "loader.mjs");
  return loader && existsSync(loader) ? loader : undefined;
}
