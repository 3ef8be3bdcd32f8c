// Finding a server's root for a file (nearest marker upward, inside the workdir) and a file to open in a root.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { isInside } from "../workspace/paths.ts";
import { hasMarker, ROOT_SCAN_DEPTH, SKIPPED_FOLDERS } from "../workspace/project-roots.ts";
import { servesFile, type ServerSpec } from "./catalog.ts";

/** The nearest directory from `file` up to the workdir holding one of `markers`; never a silent fallback. */
export function findRoot(workdir: string, file: string, markers: readonly string[]): string | undefined {
  let dir = dirname(file);
  while (isInside(workdir, dir)) {
    if (markers.some((marker) => hasMarker(dir, marker))) return dir;
    if (dir === workdir) break;
    dir = dirname(dir);
  }
  return undefined;
}

/** The server's root for a file: the nearest marker upward, else the workdir for a server whose files stand alone. */
export function rootOf(workdir: string, file: string, spec: ServerSpec): string | undefined {
  return findRoot(workdir, file, spec.rootMarkers) ?? (spec.workdirRoot ? workdir : undefined);
}

/** The first file `spec` serves within ROOT_SCAN_DEPTH of `root`. */
export function sampleFileFor(root: string, spec: ServerSpec): string | undefined {
  return sampleFile(root, spec.extensions, (name) => servesFile(spec, name));
}

/** The first source file of `extensions` within ROOT_SCAN_DEPTH of `root` — something to open so a project loads. */
function sampleFile(root: string, extensions: readonly string[], serves = (name: string) => extensions.some((ext) => name.endsWith(ext))): string | undefined {
  const visit = (dir: string, depth: number): string | undefined => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      return undefined;
    }
    const file = entries.find((e) => e.isFile() && serves(e.name) && !e.name.endsWith(".d.ts"));
    if (file) return join(dir, file.name);
    if (depth >= ROOT_SCAN_DEPTH) return undefined;
    for (const entry of entries) {
      if (!entry.isDirectory() || SKIPPED_FOLDERS.has(entry.name) || entry.name.startsWith(".")) continue;
      const found = visit(join(dir, entry.name), depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  return visit(root, 0);
}

export function commandFor(spec: ServerSpec): string {
  return [spec.command, ...spec.args].join(" ");
}
