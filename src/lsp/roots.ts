// Finding a server's root for a file (nearest marker upward, inside the workdir) and its binary.
import { accessSync, constants, existsSync, readdirSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { isInside } from "../workspace/paths.ts";
import { ROOT_SCAN_DEPTH, SKIPPED_FOLDERS } from "../workspace/project-roots.ts";
import type { ServerSpec } from "./catalog.ts";

/** The nearest directory from `file` up to the workdir holding one of `markers`; never a silent fallback. */
export function findRoot(workdir: string, file: string, markers: readonly string[]): string | undefined {
  let dir = dirname(file);
  while (isInside(workdir, dir)) {
    if (markers.some((marker) => existsSync(join(dir, marker)))) return dir;
    if (dir === workdir) break;
    dir = dirname(dir);
  }
  return undefined;
}

/** The first source file of `extensions` within ROOT_SCAN_DEPTH of `root` — something to open so a project loads. */
export function sampleFile(root: string, extensions: readonly string[]): string | undefined {
  const visit = (dir: string, depth: number): string | undefined => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      return undefined;
    }
    const file = entries.find((e) => e.isFile() && extensions.some((ext) => e.name.endsWith(ext)) && !e.name.endsWith(".d.ts"));
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

export type BinaryLookup = { found: true; path: string } | { found: false; searched: string[] };

/**
 * Resolves a command the way the catalog promises: a path as given, else the root's (and its
 * ancestors' inside the workdir) node_modules/.bin, else PATH.
 */
export function resolveBinary(command: string, root: string, workdir: string, envPath = process.env.PATH ?? ""): BinaryLookup {
  if (command.includes("/")) {
    const path = isAbsolute(command) ? command : resolve(root, command);
    return isExecutable(path) ? { found: true, path } : { found: false, searched: [path] };
  }
  const folders: string[] = [];
  for (let dir = root; isInside(workdir, dir); dir = dirname(dir)) {
    folders.push(join(dir, "node_modules", ".bin"));
    if (dir === workdir) break;
  }
  folders.push(...envPath.split(delimiter).filter(Boolean));
  for (const folder of folders) {
    const path = join(folder, command);
    if (isExecutable(path)) return { found: true, path };
  }
  return { found: false, searched: folders };
}

export function commandFor(spec: ServerSpec): string {
  return [spec.command, ...spec.args].join(" ");
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
