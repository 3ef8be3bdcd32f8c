// The lockfile of each npm install, embedded in the binary: the exact dependency tree and its integrity hashes (build/server-locks.ts writes them).
import astro from "./locks/astro.lock" with { type: "text" };
import bash from "./locks/bash.lock" with { type: "text" };
import dockerfile from "./locks/dockerfile.lock" with { type: "text" };
import graphql from "./locks/graphql.lock" with { type: "text" };
import php from "./locks/php.lock" with { type: "text" };
import prisma from "./locks/prisma.lock" with { type: "text" };
import python from "./locks/python.lock" with { type: "text" };
import sql from "./locks/sql.lock" with { type: "text" };
import svelte from "./locks/svelte.lock" with { type: "text" };
import typescript from "./locks/typescript.lock" with { type: "text" };
import langserversExtracted from "./locks/vscode-langservers-extracted.lock" with { type: "text" };
import vue from "./locks/vue.lock" with { type: "text" };
import yaml from "./locks/yaml.lock" with { type: "text" };

const LOCKFILES: Readonly<Record<string, string>> = {
  astro,
  bash,
  dockerfile,
  graphql,
  php,
  prisma,
  python,
  sql,
  svelte,
  typescript,
  "vscode-langservers-extracted": langserversExtracted,
  vue,
  yaml,
};

/** The install's lockfile; a catalog entry without one is a build mistake, named as such. */
export function lockfileOf(name: string): string {
  const lockfile = LOCKFILES[name];
  if (lockfile === undefined) throw new Error(`No lockfile for the npm install ${name}: run \`npx bun build/server-locks.ts ${name}\` and commit src/lsp/provision/locks/${name}.lock.`);
  return lockfile;
}
