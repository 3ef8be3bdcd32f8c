// A fresh git worktree per worker (isolation: "worktree"), so parallel workers never edit the same files.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { findExecutable, trustedEnv, type ProgramTrust } from "../platform/executables.ts";
import { isLink as isLinkAt, stateFolder } from "./worker-store.ts";

/** Bound on one git command; adding a worktree of a large checkout writes every file. */
export const GIT_TIMEOUT_MS = 120_000;

const NO_GIT = "git is not installed or not on PATH; install git or use isolation \"workdir\"";

/** git run in `trust.workdir`, found as every program is (untrusted: never one the checkout put on PATH). */
function git(trust: ProgramTrust, args: string[]): Promise<string> {
  const program = findExecutable("git", { trust });
  if (!program) return Promise.reject(new Error(NO_GIT));
  return new Promise((resolve, reject) => {
    execFile(program, args, { cwd: trust.workdir, env: trustedEnv(process.env, trust), timeout: GIT_TIMEOUT_MS, maxBuffer: 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return reject(new Error(NO_GIT));
      const detail = stderr.trim().split("\n").at(-1) || error.message;
      reject(new Error(`git ${args.join(" ")} failed: ${detail}`));
    });
  });
}

/**
 * Checks out the workdir's HEAD, detached, at `path`. An existing worktree there (a re-run of the
 * same worker) is reused as is, so a worker's second generation sees its first one's edits.
 */
export async function prepareWorktree(trust: ProgramTrust, path: string): Promise<string> {
  stateFolder(dirname(path)); // the worker's folder: never a link the checkout planted
  if (existsSync(path) || isLinkAt(path)) {
    stateFolder(path); // a planted link (w1/worktree -> ~) would give the worker a home outside the workdir
    return path;
  }
  const head = await gitHead(trust);
  if (!head.ok) throw new Error(head.reason);
  // One add at a time: git names each worktree's admin folder after the path's last part (here
  // always "worktree"), and two adds at once raced for the same name ("failed to read commondir").
  const added = worktreeAdds.then(() => git(trust, ["worktree", "add", "--detach", path, "HEAD"]));
  worktreeAdds = added.catch(() => undefined);
  await added;
  return path;
}

let worktreeAdds: Promise<unknown> = Promise.resolve();

/** The commit a new worktree would check out, or why there is none. */
export async function gitHead(trust: ProgramTrust): Promise<{ ok: true; commit: string } | { ok: false; reason: string }> {
  try {
    return { ok: true, commit: (await git(trust, ["rev-parse", "--verify", "HEAD"])).trim() };
  } catch (error) {
    const message = (error as Error).message;
    if (message.startsWith("git is not installed")) return { ok: false, reason: message };
    return { ok: false, reason: `the workdir ${trust.workdir} is not a git checkout with a commit (${message}); isolation "worktree" needs one` };
  }
}

/** Removes a worktree and git's record of it; used only for a temporary state directory. */
export async function removeWorktree(trust: ProgramTrust, path: string): Promise<void> {
  if (!existsSync(path)) return;
  await git(trust, ["worktree", "remove", "--force", path]).catch(() => {});
  await git(trust, ["worktree", "prune"]).catch(() => {});
}
