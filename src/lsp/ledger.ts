// The per-run DiagnosticLedger: only newly appearing diagnostics are reported, a moved one is not.
export interface LedgerDiagnostic {
  path: string;
  line: number;
  severity: string;
  code?: string;
  message: string;
}

/**
 * Counts, per file, the diagnostics last seen under the key (severity, code, message) — position
 * left out on purpose. A diagnostic that moved keeps its count and stays quiet; a second identical
 * one raises the count and is new; a fixed one drops the count, so bringing it back is new again.
 */
export class DiagnosticLedger {
  private readonly seen = new Map<string, Map<string, number>>();

  /** Records `current` as the file's full set and returns the ones beyond what was already seen. */
  admit<T extends LedgerDiagnostic>(path: string, current: readonly T[]): T[] {
    const before = this.seen.get(path) ?? new Map<string, number>();
    const counts = new Map<string, number>();
    const fresh: T[] = [];
    for (const diagnostic of [...current].sort((a, b) => a.line - b.line)) {
      const key = keyOf(diagnostic);
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      if (count > (before.get(key) ?? 0)) fresh.push(diagnostic);
    }
    if (counts.size === 0) this.seen.delete(path);
    else this.seen.set(path, counts);
    return fresh;
  }

  /** Everything the ledger holds now, per file: the diagnostics the agent has been told of and not yet seen fixed. */
  findings(): { path: string; severity: string; code: string | null; message: string; count: number }[] {
    return [...this.seen].flatMap(([path, counts]) =>
      [...counts].map(([key, count]) => {
        const [severity, code, message] = JSON.parse(key) as [string, string | null, string];
        return { path, severity, code, message, count };
      }),
    );
  }

  /** How many distinct diagnostics the ledger currently holds for a file. */
  heldFor(path: string): number {
    return [...(this.seen.get(path)?.values() ?? [])].reduce((sum, n) => sum + n, 0);
  }
}

function keyOf(d: LedgerDiagnostic): string {
  return JSON.stringify([d.severity, d.code ?? null, d.message]);
}
