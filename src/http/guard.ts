// Who may talk to the server: loopback Host and Origin (against DNS rebinding), bearer token → surface.
import { sameDigest, secretDigest } from "../platform/secrets.ts";

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/** True for localhost, 127.0.0.0/8 and ::1, with or without a port. */
export function isLoopbackHost(host: string): boolean {
  // `[::1]:8080` and a bare `::1` (two or more colons, no port possible) keep their colons.
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":").length > 2 ? host : host.replace(/:\d+$/, "");
  const lower = name.toLowerCase();
  return LOOPBACK_NAMES.has(lower) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(lower) || lower.endsWith(".localhost");
}

/**
 * True when a Host header is a host with an optional port, as RFC 3986 spells an authority: a
 * bracketed IPv6 address or a name of URL-safe characters, then `:` and a port up to 65535. The
 * runtime builds the request's URL from it, and a malformed one (`[`, `a b`, `localhost:abc`)
 * makes that URL unparsable for every handler after.
 */
export function isWellFormedHost(host: string): boolean {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::(\d{1,5}))?$/.exec(host);
  if (!match || (match[2] !== undefined && Number(match[2]) > 65_535)) return false;
  return URL.canParse(`http://${host}/`);
}

export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && isLoopbackHost(url.host);
  } catch {
    return false;
  }
}

/** The bearer token of a request, from `Authorization: Bearer …`. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match?.[1];
}

/** Finds whose token this is, comparing against every surface so timing says nothing about which. */
export function matchToken<T extends { token: string }>(given: string | undefined, grants: readonly T[]): T | undefined {
  if (given === undefined) return undefined;
  const presented = secretDigest(given);
  let found: T | undefined;
  for (const grant of grants) if (sameDigest(presented, digestOfGrant(grant)) && !found) found = grant;
  return found;
}

/** Each grant's token digested once (every request is checked against every surface's token). */
const grantDigests = new WeakMap<{ token: string }, { token: string; digest: Uint8Array }>();

function digestOfGrant(grant: { token: string }): Uint8Array {
  const kept = grantDigests.get(grant);
  if (kept?.token === grant.token) return kept.digest;
  const digest = secretDigest(grant.token);
  grantDigests.set(grant, { token: grant.token, digest });
  return digest;
}
