// The run's secrets: minted from the system's random source, compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** 32 random bytes, URL-safe: a bearer token or the operator page's secret. */
export function mintSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** Compares secrets in constant time; hashing first makes the lengths equal. */
export function sameSecret(given: string, expected: string): boolean {
  return sameDigest(secretDigest(given), secretDigest(expected));
}

/** A secret's SHA-256, for comparing it in constant time with sameDigest (a secret checked often is digested once). */
export function secretDigest(secret: string): Uint8Array {
  return createHash("sha256").update(secret).digest();
}

export function sameDigest(a: Uint8Array, b: Uint8Array): boolean {
  return timingSafeEqual(a, b);
}
