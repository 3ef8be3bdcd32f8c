// The language-server catalog as data: which server serves which files, where its roots are, how to start and install it.
import { basename, extname } from "node:path";
import type { LanguageServerSettings } from "../config/resources/language-servers.ts";
import { NPM_SERVERS } from "./catalog-npm.ts";
import { SYSTEM_SERVERS } from "./catalog-system.ts";
import type { ServerSpec } from "./server-spec.ts";

export type { NpmInstall, ProjectChecker, ServerSpec, UntrustedLaunch } from "./server-spec.ts";

export const BUILTIN_SERVERS: readonly ServerSpec[] = [...NPM_SERVERS, ...SYSTEM_SERVERS];

/** The built-in catalog with the run config's overrides and additions applied. */
export function buildCatalog(settings: LanguageServerSettings = {}): ServerSpec[] {
  const overrides = settings.servers ?? {};
  const byId = new Map(BUILTIN_SERVERS.map((spec) => [spec.id, spec]));
  for (const [id, override] of Object.entries(overrides)) {
    const base = byId.get(id);
    const { disabled, ...fields } = override;
    if (disabled) {
      byId.delete(id);
      continue;
    }
    const defaults = { id, languages: [], extensions: [], rootMarkers: [], command: id, args: [], installHint: `install ${id} yourself` };
    const merged: ServerSpec = { ...defaults, ...base, ...definedOnly(fields) };
    // A command of the config's own is what runs: the catalog's npm install is for the catalog's command.
    if (fields.command !== undefined) delete merged.npm;
    byId.set(id, merged);
  }
  return [...byId.values()];
}

/** The language id LSP wants in didOpen, from the file's name or extension. */
export function languageIdFor(spec: ServerSpec, path: string): string {
  const ids = spec.languageIds ?? {};
  return ids[basename(path)] ?? ids[extname(path)] ?? spec.languages[0] ?? spec.id;
}

/** Whether `spec` serves the file at `path`, by extension or by whole file name. */
export function servesFile(spec: ServerSpec, path: string): boolean {
  const name = basename(path);
  const extension = extname(name);
  if (extension && spec.extensions.includes(extension)) return true;
  return (spec.fileNames ?? []).some((pattern) => (pattern.endsWith(".*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern));
}

export function serversForFile(catalog: readonly ServerSpec[], path: string): ServerSpec[] {
  return catalog.filter((spec) => servesFile(spec, path));
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
