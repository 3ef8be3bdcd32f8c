// The seam for "after a write": caches drop stale state and language servers report new
// diagnostics. Each hook may return a note that is folded into the write's answer.

type AfterWriteHook = (paths: readonly string[]) => Promise<string | undefined>;

export class WriteHooks {
  private readonly hooks: AfterWriteHook[] = [];

  add(hook: AfterWriteHook): () => void {
    this.hooks.push(hook);
    return () => {
      const at = this.hooks.indexOf(hook);
      if (at !== -1) this.hooks.splice(at, 1);
    };
  }

  /** Runs every hook; a failing hook becomes a note instead of failing the write that already happened. */
  async run(paths: readonly string[]): Promise<string[]> {
    const notes = await Promise.all(
      this.hooks.map((hook) => hook(paths).catch((error: unknown) => `after-write check failed: ${(error as Error).message}`)),
    );
    return notes.filter((note): note is string => note !== undefined && note !== "");
  }
}
