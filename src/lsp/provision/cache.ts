// The install cache on disk: where each installed server lives, whether an install is complete, what it weighs.
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { NpmInstall, ServerSpec } from "../catalog.ts";
import { lockfileOf } from "./locks.ts";

/** Written last into a finished install: an install folder without it (or with another lockfile's hash) is not one. */
export const INSTALL_RECORD = "install.json";

/** $XDG_CACHE_HOME/sidecar/servers, else ~/.cache/sidecar/servers. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith("/") ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(base, "sidecar", "servers");
}

/** One npm install as the catalog pins it: its name in the cache, version, packages and lockfile. */
export interface InstallPlan {
  /** `<name>@<version>`: the folder in the cache. */
  key: string;
  name: string;
  version: string;
  packages: Readonly<Record<string, string>>;
  overrides?: Readonly<Record<string, string>>;
  lockfile: string;
  lockSha256: string;
  /** The servers this install serves (html, css and json share one). */
  servers: string[];
}

export function installPlanOf(spec: ServerSpec, catalog: readonly ServerSpec[] = [spec]): InstallPlan | undefined {
  const npm = spec.npm;
  if (!npm) return undefined;
  const name = npm.name ?? spec.id;
  const version = Object.values(npm.packages)[0]!;
  const lockfile = lockfileOf(name);
  const servers = catalog.filter((other) => other.npm && (other.npm.name ?? other.id) === name).map((other) => other.id);
  return { key: `${name}@${version}`, name, version, packages: npm.packages, ...(npm.overrides ? { overrides: npm.overrides } : {}), lockfile, lockSha256: sha256(lockfile), servers: servers.length ? servers : [spec.id] };
}

/** What `install.json` records. */
export interface InstallRecord {
  name: string;
  version: string;
  packages: Record<string, string>;
  lockSha256: string;
  installedAt: string;
  /** The sidecar version that installed it. */
  by: string;
}

interface CachedInstall {
  key: string;
  dir: string;
  record?: InstallRecord;
  /** Bytes on disk (files counted once per inode). */
  bytes: number;
}

export class ServerCache {
  constructor(readonly root: string) {}

  dirOf(plan: InstallPlan): string {
    return join(this.root, plan.key);
  }

  /** The install's folder when it is complete and matches the catalog's lockfile; otherwise undefined. */
  installed(plan: InstallPlan): string | undefined {
    const dir = this.dirOf(plan);
    const record = readRecord(dir);
    return record?.lockSha256 === plan.lockSha256 ? dir : undefined;
  }

  /** The script of a server inside its install. */
  entryOf(dir: string, npm: NpmInstall): string {
    return join(dir, "node_modules", npm.entry);
  }

  /** Every install folder in the cache (complete or not), with its size. */
  list(): CachedInstall[] {
    let names: string[];
    try {
      names = readdirSync(this.root);
    } catch {
      return [];
    }
    return names
      .filter((name) => !name.startsWith(".") && name.includes("@"))
      .sort()
      .map((key) => {
        const dir = join(this.root, key);
        const record = readRecord(dir);
        return { key, dir, ...(record ? { record } : {}), bytes: diskUsage(dir) };
      });
  }

  /** Removes an install folder; false when there was none. `key` is a folder name, never a path. */
  remove(key: string): boolean {
    if (!/^[A-Za-z0-9][\w.-]*@[\w.+-]+$/.test(key)) throw new Error(`${JSON.stringify(key)} is not an install name (name@version)`);
    const dir = join(this.root, key);
    if (!existsSync(dir)) return false;
    rmSync(dir, { recursive: true, force: true });
    return true;
  }
}

function readRecord(dir: string): InstallRecord | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, INSTALL_RECORD), "utf8")) as InstallRecord;
  } catch {
    return undefined;
  }
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Bytes of the files below `dir`, each inode counted once (Bun hard-links files it installs). */
function diskUsage(dir: string): number {
  const seen = new Set<string>();
  let bytes = 0;
  const visit = (path: string) => {
    let entries;
    try {
      entries = readdirSync(path, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) {
        visit(child);
        continue;
      }
      try {
        const stat = lstatSync(child);
        const inode = `${stat.dev}:${stat.ino}`;
        if (seen.has(inode)) continue;
        seen.add(inode);
        bytes += stat.blocks * 512;
      } catch {
        // vanished meanwhile
      }
    }
  };
  visit(dir);
  return bytes;
}

/** "38.2 MB" */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
