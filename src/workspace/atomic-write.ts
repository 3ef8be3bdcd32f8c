// Writing several files as one step: every file changes, or none does (temp file + rename, rolled back on failure).
import { randomBytes } from "node:crypto";
import { chmod, lstat, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export interface FileChange {
  path: string;
  content: string;
}

interface Original {
  path: string;
  /** undefined: the file did not exist before. */
  content?: Buffer;
  mode?: number;
}

/**
 * Replaces each file's content (creating it if new), keeping permissions. Temp files are written
 * first; if any rename then fails, the files already replaced are put back and new ones removed.
 * `removals` are deleted only once every write has landed.
 */
export async function writeFilesAtomically(changes: readonly FileChange[], removals: readonly string[] = []): Promise<void> {
  const originals: Original[] = await Promise.all(changes.map((c) => readOriginal(c.path)));
  const temps: string[] = [];
  try {
    for (const [i, change] of changes.entries()) {
      await mkdir(dirname(change.path), { recursive: true });
      const temp = tempNameFor(change.path);
      await writeFile(temp, change.content, { mode: originals[i]!.mode ?? 0o666 });
      if (originals[i]!.mode !== undefined) await chmod(temp, originals[i]!.mode!);
      temps.push(temp);
    }
  } catch (error) {
    await Promise.all(temps.map((t) => rm(t, { force: true })));
    throw new Error(`Nothing was written: preparing ${changes[temps.length]?.path} failed (${(error as Error).message}).`);
  }
  const replaced: Original[] = [];
  try {
    for (const [i, change] of changes.entries()) {
      await rename(temps[i]!, change.path);
      replaced.push(originals[i]!);
    }
  } catch (error) {
    await restore(replaced);
    await Promise.all(temps.map((t) => rm(t, { force: true })));
    throw new Error(`Nothing was written: replacing ${changes[replaced.length]?.path} failed (${(error as Error).message}); the files already replaced were restored.`);
  }
  const removed: Original[] = [];
  try {
    for (const path of removals) {
      const original = await readOriginal(path);
      await rm(path);
      removed.push(original);
    }
  } catch (error) {
    await restore([...replaced, ...removed]);
    throw new Error(`Nothing was written: removing ${removals[removed.length]} failed (${(error as Error).message}); every file was restored.`);
  }
}

async function readOriginal(path: string): Promise<Original> {
  try {
    const stat = await lstat(path);
    return { path, content: await readFile(path), mode: stat.mode & 0o7777 };
  } catch {
    return { path };
  }
}

async function restore(originals: readonly Original[]): Promise<void> {
  for (const original of [...originals].reverse()) {
    try {
      if (original.content === undefined) await rm(original.path, { force: true });
      else await writeFile(original.path, original.content, { mode: original.mode });
    } catch {
      // Best effort: the caller's error already says the write failed.
    }
  }
}

function tempNameFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.sidecar-${randomBytes(4).toString("hex")}.tmp`);
}
