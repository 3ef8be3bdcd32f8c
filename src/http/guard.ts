// Who may talk to the server: loopback Host and Origin (against DNS rebinding), bearer token → surface.
import { sameSecret } from "../platform/secrets.ts";

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/** True for localhost, 127.0.0.0/8 and ::1, with or without a port. */
export function isLoopbackHost(host: string): boolean {
  // `[::1]:8080` and a bare `::1` (two or more colons, no port possible) keep their colons.
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":").length > 2 ? host : host.replace(/:\d+$/, "");
  const lower = name.toLowerCase();
  return LOOPBACK_NAMES.has(lower) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(lower) || lower.endsWith(".localhost");
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
  let found: T | undefined;
  for (const grant of grants) if (sameSecret(given, grant.token) && !found) found = grant;
  return found;
}
