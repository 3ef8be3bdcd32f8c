// Project roots below the workdir: every folder holding a marker (tsconfig.json, go.mod, …), found by
// a bounded scan. Language servers and debug adapters both need it.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Folders a root scan never enters: dependencies and build output hold markers that are not roots. */
export const SKIPPED_FOLDERS = new Set(["node_modules", ".git", "target", "dist", "build", ".venv", "venv", "__pycache__"]);
/** How deep a scan looks for roots below the workdir. */
export const ROOT_SCAN_DEPTH = 3;

/** Every directory within ROOT_SCAN_DEPTH of the workdir holding one of `markers`, the workdir first. */
export function scanRoots(workdir: string, markers: readonly string[]): string[] {
  const found: string[] = [];
  const visit = (dir: string, depth: number) => {
    if (markers.some((marker) => hasMarker(dir, marker))) found.push(dir);
    if (depth >= ROOT_SCAN_DEPTH) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith(".")) visit(join(dir, entry.name), depth + 1);
    }
  };
  visit(workdir, 0);
  return found;
}

/** Whether `dir` holds `marker`: a file or folder of that name, or for "*.csproj" any name with that suffix. */
export function hasMarker(dir: string, marker: string): boolean {
  if (!marker.startsWith("*")) return existsSync(join(dir, marker));
  try {
    return readdirSync(dir).some((name) => name.endsWith(marker.slice(1)));
  } catch {
    return false;
  }
}
