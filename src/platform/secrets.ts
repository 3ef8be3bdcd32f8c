// The run's secrets: minted from the system's random source, compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** 32 random bytes, URL-safe: a bearer token or the operator page's secret. */
export function mintSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** Compares secrets in constant time; hashing first makes the lengths equal. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}
