// Whether an adapter can serve a root: a root marker AND its binary AND it answers initialize.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { scanRoots } from "../workspace/project-roots.ts";
import { ADAPTERS, type AdapterEntry, type AdapterId, type BinaryLookup } from "./catalog.ts";
import { startAdapter } from "./adapter-process.ts";
import { findRoot, isExecutable, which } from "./locate.ts";

/** How long the start probe (spawn + initialize) may take before the adapter counts as not starting. */
export const START_PROBE_TIMEOUT_MS = 20_000;

export interface AdapterOverride {
  /** Replaces the catalog's command (argv) for this adapter. */
  command?: readonly string[];
}

export type Overrides = Partial<Record<AdapterId, AdapterOverride>>;

export interface Detection {
  adapter: AdapterId;
  usable: boolean;
  /** Where it was found, or the exact reason it cannot be used. */
  detail: string;
  hint?: string;
  root?: string;
  command?: string[];
  python?: string;
}

export const INITIALIZE_ARGUMENTS: DebugProtocol.InitializeRequestArguments = {
  clientID: "sidecar",
  clientName: "sidecar",
  adapterID: "sidecar",
  linesStartAt1: true,
  columnsStartAt1: true,
  pathFormat: "path",
  supportsVariableType: true,
  supportsRunInTerminalRequest: false,
};

/** The adapter's binary per catalog, or per the run's override when one is set. */
export function lookupBinary(entry: AdapterEntry, root: string, overrides: Overrides): BinaryLookup {
  const command = overrides[entry.id]?.command;
  if (!command?.length) return foundBefore(entry, root);
  const path = which(command[0]!);
  if (!path) {
    return { ok: false, reason: `the configured command ${command[0]} is not executable`, hint: "fix resources.debugAdapters.adapters in the run config" };
  }
  const python = entry.id === "debugpy" ? path : undefined;
  return { ok: true, command: [path, ...command.slice(1)], detail: `${path} (configured)`, ...(python ? { python } : {}) };
}

/**
 * Scanning PATH and /usr/lib/llvm-* on every launch costs tens of ms; a binary found once is kept
 * while it is still executable. A miss is not kept, so installing the adapter mid-run is seen.
 */
const foundBinaries = new Map<string, BinaryLookup & { ok: true }>();

function foundBefore(entry: AdapterEntry, root: string): BinaryLookup {
  const key = [entry.id, root, process.env.PATH].join("\0");
  const known = foundBinaries.get(key);
  if (known && isExecutable(known.command[0]!)) return known;
  const lookup = entry.findBinary(root);
  if (lookup.ok) foundBinaries.set(key, lookup);
  else foundBinaries.delete(key);
  return lookup;
}

/** Marker and binary only: cheap, used before every launch. */
export function detectStatic(entry: AdapterEntry, workdir: string, start: string, overrides: Overrides): Detection {
  const found = findRoot(workdir, start, entry.rootMarkers) ?? (start === workdir ? projectBelow(workdir, entry.rootMarkers) : undefined);
  if (!found) {
    // Both halves are named, so "add a marker" is never advice for a machine that lacks the binary.
    const binary = lookupBinary(entry, workdir, overrides);
    const also = binary.ok ? `the adapter itself is installed (${binary.detail})` : `${binary.reason} either`;
    return {
      adapter: entry.id,
      usable: false,
      detail: `no root marker (${entry.rootMarkers.join(", ")}) in the workspace; ${also}`,
      hint: `add ${entry.rootMarkers[0]} at the project root if this is such a project${binary.ok ? "" : `, and ${binary.hint}`}`,
    };
  }
  const binary = lookupBinary(entry, found.root, overrides);
  if (!binary.ok) return { adapter: entry.id, usable: false, detail: binary.reason, hint: binary.hint, root: found.root };
  return {
    adapter: entry.id,
    usable: true,
    detail: `${binary.detail}; root marker ${found.marker}`,
    root: found.root,
    command: binary.command,
    ...(binary.python ? { python: binary.python } : {}),
  };
}

/**
 * For `adapters` and `attach`, which name no program: a project below the workdir (a monorepo's
 * `py/requirements.txt`) when the workdir itself holds no marker. Launch worked there; these said
 * "no root marker" and refused even with an explicit adapter.
 */
function projectBelow(workdir: string, markers: readonly string[]): { root: string; marker: string } | undefined {
  const root = scanRoots(workdir, markers)[0];
  const marker = root && markers.find((name) => existsSync(join(root, name)));
  return root && marker ? { root, marker } : undefined;
}

/** Marker, binary, and a real start: spawn it, initialize, stop it. */
export async function detectAdapter(entry: AdapterEntry, workdir: string, overrides: Overrides): Promise<Detection> {
  const found = detectStatic(entry, workdir, workdir, overrides);
  if (!found.usable) return found;
  try {
    const adapter = await startAdapter({ command: found.command!, transport: entry.transport, cwd: found.root! });
    try {
      await adapter.connection.request("initialize", { ...INITIALIZE_ARGUMENTS, adapterID: entry.id }, START_PROBE_TIMEOUT_MS);
    } finally {
      await adapter.stop();
    }
    return found;
  } catch (error) {
    return {
      ...found,
      usable: false,
      detail: `${found.command!.join(" ")} does not start: ${(error as Error).message}`,
      hint: "run the command by hand to see why; reinstall the adapter if it crashes",
    };
  }
}

export function detectAll(workdir: string, overrides: Overrides): Promise<Detection[]> {
  return Promise.all(ADAPTERS.map((entry) => detectAdapter(entry, workdir, overrides)));
}
