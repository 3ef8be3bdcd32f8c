// Where this OS user's running sidecars can be reached by this user alone: a folder only its owner
// may enter (mode 0700), holding one socket per run, named by its pid. `sidecar console` asks a
// run for a fresh page link there; another user cannot even list the folder.
import { lstatSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The runs' folder: $XDG_RUNTIME_DIR/sidecar (per user already), else <tmp>/sidecar-<uid>. */
export function ownRunsFolder(env: NodeJS.ProcessEnv = process.env): string {
  const runtime = env.XDG_RUNTIME_DIR;
  return runtime ? join(runtime, "sidecar") : join(tmpdir(), `sidecar-${process.getuid?.() ?? "user"}`);
}

/** The socket of the run with this pid. */
export function runSocket(folder: string, pid: number): string {
  return join(folder, `${pid}.sock`);
}

/**
 * Why the folder cannot be trusted as this user's alone (someone else made it, a link, open to
 * others), or undefined when it can. In a shared /tmp another user may create the name first.
 */
export function notPrivate(folder: string): string | undefined {
  const stat = lstatSync(folder);
  if (stat.isSymbolicLink() || !stat.isDirectory()) return `${folder} is not a folder (a link or a file is in its place)`;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return `${folder} belongs to another user (uid ${stat.uid})`;
  if ((stat.mode & 0o077) !== 0) return `${folder} is open to other users (mode ${(stat.mode & 0o777).toString(8)})`;
  return undefined;
}

/** The folder, made private if new; throws with a sentence when it exists and is not private. */
export function ensureOwnRunsFolder(folder: string): string {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const problem = notPrivate(folder);
  if (problem) throw new Error(`${problem}; remove it, and sidecar makes it again, private to you.`);
  return folder;
}
