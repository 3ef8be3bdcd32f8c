// Whether a file is marked read-only for the sidecar's user. Every write renames a temp file over the
// original, which needs only the folder's write permission, so without this look a 0444 file is
// replaced like any other (as root or not).
import { accessSync, constants, type Stats } from "node:fs";

/**
 * The file's mode in octal ("0444") when its mode bits deny the sidecar's user writing it, else
 * undefined. Root may write anything, so for root any write bit counts: a file nobody may write is
 * one its owner marked read-only on purpose.
 */
export function readOnlyMode(path: string, info: Stats): string | undefined {
  const mode = info.mode & 0o7777;
  const octal = `0${mode.toString(8).padStart(3, "0")}`;
  if (process.getuid?.() === 0) return (mode & 0o222) === 0 ? octal : undefined;
  try {
    accessSync(path, constants.W_OK);
    return undefined;
  } catch {
    return octal;
  }
}
