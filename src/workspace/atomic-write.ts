// Writes several files so the tree is never half old, half new: each file goes through a temp file
// in its own directory and a rename (permissions kept); if one fails, those already replaced are restored.
import { randomBytes } from "node:crypto";
import { chmod, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export interface FileChange {
  /** Absolute path. */
  path: string;
  content: string;
}

export class AtomicWriteError extends Error {
  override name = "AtomicWriteError";
  constructor(
    readonly failedPath: string,
    override readonly cause: Error,
    /** Files that had been replaced and were put back; empty when none had been. */
    readonly restored: string[],
    /** Files that could not be put back — reported, never hidden. */
    readonly unrestored: string[],
  ) {
    super(
      `Writing ${failedPath} failed (${cause.message}); ` +
        (unrestored.length > 0
          ? `restoring ${unrestored.join(", ")} failed too, so those files hold the new content.`
          : restored.length > 0
            ? `the ${restored.length} file(s) already written were restored, so nothing changed.`
            : "no file had been written yet, so nothing changed."),
    );
  }
}

interface Original {
  path: string;
  content: Buffer | undefined;
  mode: number | undefined;
}

/** Writes every change or none; returns the paths written. */
export async function writeFilesAtomically(changes: readonly FileChange[]): Promise<string[]> {
  const originals: Original[] = [];
  for (const change of changes) {
    const info = await stat(change.path).catch(() => undefined);
    originals.push({ path: change.path, content: info ? await readFile(change.path) : undefined, mode: info?.mode });
  }
  const replaced: Original[] = [];
  for (const [k, change] of changes.entries()) {
    try {
      await replaceFile(change.path, change.content, originals[k]!.mode);
      replaced.push(originals[k]!);
    } catch (error) {
      const { restored, unrestored } = await restore(replaced);
      throw new AtomicWriteError(change.path, error as Error, restored, unrestored);
    }
  }
  return changes.map((c) => c.path);
}

async function replaceFile(path: string, content: string | Buffer, mode: number | undefined): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString("hex")}.sidecar-tmp`);
  try {
    await writeFile(temp, content, { flag: "wx", mode: mode !== undefined ? mode & 0o7777 : 0o644 });
    if (mode !== undefined) await chmod(temp, mode & 0o7777); // writeFile's mode is filtered by umask
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
}

async function restore(replaced: readonly Original[]): Promise<{ restored: string[]; unrestored: string[] }> {
  const restored: string[] = [];
  const unrestored: string[] = [];
  for (const original of [...replaced].reverse()) {
    try {
      if (original.content === undefined) await unlink(original.path);
      else await replaceFile(original.path, original.content, original.mode);
      restored.push(original.path);
    } catch {
      unrestored.push(original.path);
    }
  }
  return { restored, unrestored };
}
