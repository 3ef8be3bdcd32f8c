// What a file held when the run began, from git: the text a first write of a file is compared with.
import { relative, resolve, sep } from "node:path";
import { findExecutable, trustedEnv, type ProgramTrust } from "../platform/executables.ts";
import { capture } from "./capture.ts";

/** A git answer gets this long; a checkout whose git is slower has no record (nothing is assumed). */
const GIT_TIMEOUT_MS = 15_000;

/** A file's text at the start of the run: its text, `null` when it did not exist, `undefined` when unknown. */
type TextAtStart = string | null | undefined;

/**
 * Lists, once at the start of the run, the files that differed from git's index then (modified,
 * deleted, untracked). Any other file under version control held its index text when the run
 * began; one neither tracked, nor untracked, nor ignored did not exist. Nothing else is assumed:
 * outside a git checkout, or for a file that was already changed, the answer is "unknown".
 */
export class CheckoutRecord {
  private snapshot: Promise<Set<string> | undefined> | undefined;

  constructor(
    readonly workdir: string,
    /** Which git may run: untrusted, none the checkout put on PATH. */
    private readonly trust: ProgramTrust,
  ) {}

  /** Takes the snapshot (once); call it before anything in the workdir can change. */
  start(): void {
    this.snapshot ??= this.takeSnapshot();
  }

  /** Resolves once the snapshot is taken (or known impossible): a change after that is seen as one. */
  async ready(): Promise<void> {
    this.start();
    await this.snapshot;
  }

  async textAtStart(path: string): Promise<TextAtStart> {
    this.start();
    const dirty = await this.snapshot;
    if (!dirty || dirty.has(path)) return undefined;
    const rel = relative(this.workdir, path).split(sep).join("/");
    // With the checkout's filters (line endings, smudge), as the file was on disk.
    const shown = await this.git(["cat-file", "--filters", `:./${rel}`]).catch(() => undefined);
    if (shown?.exitCode === 0) return shown.stdout;
    const ignored = await this.git(["check-ignore", "-q", "--", rel]).catch(() => undefined);
    // Tracked files were shown, untracked ones were listed as dirty: a file git would not ignore existed not at all.
    return ignored?.exitCode === 1 ? null : undefined;
  }

  private async takeSnapshot(): Promise<Set<string> | undefined> {
    try {
      const listed = await this.git(["ls-files", "-z", "--modified", "--deleted", "--others", "--exclude-standard"]);
      if (listed.exitCode !== 0) return undefined; // not a git checkout
      return new Set(listed.stdout.split("\0").filter(Boolean).map((rel) => resolve(this.workdir, rel)));
    } catch {
      return undefined; // no git
    }
  }

  private git(args: string[]) {
    const git = findExecutable("git", { trust: this.trust });
    if (!git) return Promise.reject(new Error("git is not on PATH"));
    return capture(git, ["-c", "core.quotepath=off", ...args], this.workdir, GIT_TIMEOUT_MS, undefined, trustedEnv(process.env, this.trust));
  }
}
