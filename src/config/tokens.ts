// Bearer tokens fixed outside the run config: token files (--token-file) and SIDECAR_TOKEN* variables.
import { readFileSync, statSync } from "node:fs";
import * as v from "valibot";
import { issueText } from "../validation/issue-text.ts";
import { ConfigError } from "./load.ts";
import { surfaceToken } from "./schema.ts";

const TOKEN_VARIABLE = "SIDECAR_TOKEN";
const DEFAULT_SURFACE = "default";

/** SIDECAR_TOKEN_PLAN for surface `plan`, SIDECAR_TOKEN_CODE_REVIEW for `code-review` or `code_review`. */
export function tokenVariable(surface: string): string {
  return surface === DEFAULT_SURFACE ? TOKEN_VARIABLE : `${TOKEN_VARIABLE}_${surface.toUpperCase().replace(/-/g, "_")}`;
}

/**
 * Surface name → token from the environment and from `--token-file [SURFACE=]FILE` (files win).
 * A token for a surface the run does not have is an error, not ignored: it was meant for something.
 */
export function givenTokens(
  surfaces: readonly string[],
  env: Record<string, string | undefined>,
  tokenFiles: readonly string[] = [],
  warn: (line: string) => void = () => {},
): Record<string, string> {
  const tokens: Record<string, string> = {};
  const byVariable = new Map(surfaces.map((name) => [tokenVariable(name), name]));
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !isTokenVariable(name)) continue;
    const surface = byVariable.get(name);
    if (!surface) throw new ConfigError(`${name} names no surface of this run; its surfaces are ${surfaces.join(", ")} (${surfaces.map(tokenVariable).join(", ")}).`);
    tokens[surface] = checked(value, name);
  }
  for (const spec of tokenFiles) {
    const [surface, path] = splitSpec(spec);
    if (!surfaces.includes(surface)) throw new ConfigError(`--token-file ${spec}: this run has no surface ${surface}; its surfaces are ${surfaces.join(", ")}.`);
    tokens[surface] = checked(readTokenFile(path, warn), `--token-file ${spec}`);
  }
  return tokens;
}

export const isTokenVariable = (name: string) => name === TOKEN_VARIABLE || name.startsWith(`${TOKEN_VARIABLE}_`);

/** `plan=/run/plan.token` → [plan, path]; a bare path is the default surface's. */
function splitSpec(spec: string): [string, string] {
  const match = /^([a-z][a-z0-9_-]*)=(.+)$/.exec(spec);
  return match ? [match[1]!, match[2]!] : [DEFAULT_SURFACE, spec];
}

function readTokenFile(path: string, warn: (line: string) => void): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(`Cannot read the token file ${path}: ${(error as Error).message}`);
  }
  // A token others can read is a token others can use; ssh warns the same way about keys.
  if (process.platform !== "win32" && (statSync(path).mode & 0o077) !== 0) {
    warn(`sidecar: warning: the token file ${path} is readable by other users; chmod 600 it.`);
  }
  return text.trim();
}

function checked(token: string, origin: string): string {
  const result = v.safeParse(surfaceToken, token);
  if (!result.success) throw new ConfigError(`${origin}: ${issueText(result.issues[0])}.`);
  return token;
}
