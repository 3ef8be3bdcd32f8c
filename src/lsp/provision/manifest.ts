// The package.json an install is made from: the catalog's pins, exactly as its lockfile was generated from them.
import type { NpmInstall } from "../catalog.ts";

/** Bun's --frozen-lockfile refuses a package.json whose dependencies differ from the lockfile's. */
export function manifestOf(name: string, npm: Pick<NpmInstall, "packages" | "overrides">): string {
  const manifest = { name: `sidecar-server-${name.replace(/[^a-z0-9-]/g, "-")}`, private: true, dependencies: npm.packages, ...(npm.overrides ? { overrides: npm.overrides } : {}) };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
