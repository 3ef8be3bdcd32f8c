// Whether an adapter can serve a program: its binary is found (trust permitting) AND it answers initialize.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { scanRoots } from "../workspace/project-roots.ts";
import { ADAPTERS, type AdapterEntry, type AdapterId, type BinaryLookup } from "./catalog.ts";
import { startAdapter } from "./adapter-process.ts";
import { findExecutable, isExecutableFile, refusedExecutables, type ProgramTrust } from "../platform/executables.ts";
import { findRoot, TRUST_HINT } from "./locate.ts";

/** How long the start probe (spawn + initialize) may take before the adapter counts as not starting. */
const START_PROBE_TIMEOUT_MS = 20_000;

interface AdapterOverride {
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
  /** The program's working directory: the nearest marker's folder, else the workdir. */
  root?: string;
  /** The marker that chose `root`, when one did. */
  marker?: string;
  /** Something the caller should be told about the choice (a project venv skipped as untrusted). */
  note?: string;
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
function lookupBinary(entry: AdapterEntry, root: string, overrides: Overrides, trust: ProgramTrust): BinaryLookup {
  const command = overrides[entry.id]?.command;
  if (!command?.length) return foundBefore(entry, root, trust);
  // The config's command is the harness's choice, looked up as every program is (platform/executables.ts):
  // a bare name on PATH, a path as given; untrusted, neither may lead inside the workdir.
  const path = findExecutable(command[0]!, { trust });
  if (!path) {
    const refused = refusedExecutables(command[0]!, { trust })[0];
    return refused
      ? { ok: false, reason: `the configured command ${refused} is inside the workspace, which is not trusted`, hint: `give a command outside the workdir, or ${TRUST_HINT}` }
      : { ok: false, reason: `the configured command ${command[0]} is not executable`, hint: "fix resources.debugAdapters.adapters in the run config" };
  }
  const python = entry.id === "debugpy" ? path : undefined;
  return { ok: true, command: [path, ...command.slice(1)], detail: `${path} (configured)`, ...(python ? { python } : {}) };
}

/**
 * Scanning PATH and /usr/lib/llvm-* on every launch costs tens of ms; a binary found once is kept
 * while it is still executable. A miss is not kept, so installing the adapter mid-run is seen.
 */
const foundBinaries = new Map<string, BinaryLookup & { ok: true }>();

function foundBefore(entry: AdapterEntry, root: string, trust: ProgramTrust): BinaryLookup {
  const key = [entry.id, root, trust.workspace, trust.workdir, process.env.PATH].join("\0");
  const known = foundBinaries.get(key);
  if (known && isExecutableFile(known.command[0]!)) return known;
  const lookup = entry.findBinary(root, trust);
  // debugpy's interpreter is chosen afresh each time (choosePython keeps each interpreter's answer
  // while nothing that decides it changed): kept here, a changed interpreter would not be seen.
  if (lookup.ok && !lookup.python) foundBinaries.set(key, lookup);
  else foundBinaries.delete(key);
  return lookup;
}

/**
 * The binary, and the folder the program runs in: the nearest folder from `start` up to the
 * workdir with one of the adapter's markers, else the workdir. A marker is not a condition: a C
 * binary built by a Makefile or a folder of Python scripts is debugged all the same.
 */
export function detectStatic(entry: AdapterEntry, workdir: string, start: string, overrides: Overrides, trust: ProgramTrust): Detection {
  const found = findRoot(workdir, start, entry.rootMarkers) ?? (start === workdir ? projectBelow(workdir, entry.rootMarkers) : undefined);
  const root = found?.root ?? workdir;
  const binary = lookupBinary(entry, root, overrides, trust);
  if (!binary.ok) return { adapter: entry.id, usable: false, detail: binary.reason, hint: binary.hint, root };
  const where = found ? `root marker ${found.marker}` : `no project marker (${entry.rootMarkers.join(", ")}): programs run from the workdir`;
  return {
    adapter: entry.id,
    usable: true,
    detail: `${binary.detail}; ${where}${binary.note ? `; ${binary.note}` : ""}`,
    root,
    ...(found ? { marker: found.marker } : {}),
    ...(binary.note ? { note: binary.note } : {}),
    command: binary.command,
    ...(binary.python ? { python: binary.python } : {}),
  };
}

/**
 * For `adapters` and `attach`, which name no program: a project below the workdir (a monorepo's
 * `py/requirements.txt`) when the workdir itself holds no marker.
 */
function projectBelow(workdir: string, markers: readonly string[]): { root: string; marker: string } | undefined {
  const root = scanRoots(workdir, markers)[0];
  const marker = root && markers.find((name) => existsSync(join(root, name)));
  return root && marker ? { root, marker } : undefined;
}

/** Binary, and a real start: spawn it, initialize, stop it. */
async function detectAdapter(entry: AdapterEntry, workdir: string, overrides: Overrides, trust: ProgramTrust): Promise<Detection> {
  const found = detectStatic(entry, workdir, workdir, overrides, trust);
  if (!found.usable) return found;
  try {
    const adapter = await startAdapter({ command: found.command!, transport: entry.transport, cwd: found.root!, trust });
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

export function detectAll(workdir: string, overrides: Overrides, trust: ProgramTrust): Promise<Detection[]> {
  return Promise.all(ADAPTERS.map((entry) => detectAdapter(entry, workdir, overrides, trust)));
}
