// Comparing a file's diagnostics before and after a change: what is new, what is fixed, what was already there.
interface LedgerDiagnostic {
  path: string;
  line: number;
  severity: string;
  code?: string;
  message: string;
}

interface Comparison<T> {
  /** After the change and not before it. */
  new: T[];
  /** Before the change and not after it. */
  fixed: T[];
  /** After the change, and before it too. */
  already: T[];
}

/**
 * Diagnostics are counted by (severity, code, message), position left out on purpose: one that
 * moved four lines down is the same one, a second identical one is new, and one that went away
 * and came back is new again.
 */
export function compareDiagnostics<T extends LedgerDiagnostic>(before: readonly T[], after: readonly T[]): Comparison<T> {
  const remaining = countByKey(before);
  const comparison: Comparison<T> = { new: [], fixed: [], already: [] };
  for (const diagnostic of [...after].sort((a, b) => a.line - b.line)) {
    const key = keyOf(diagnostic);
    const left = remaining.get(key) ?? 0;
    if (left > 0) {
      remaining.set(key, left - 1);
      comparison.already.push(diagnostic);
    } else {
      comparison.new.push(diagnostic);
    }
  }
  for (const diagnostic of [...before].sort((a, b) => a.line - b.line)) {
    const key = keyOf(diagnostic);
    const left = remaining.get(key) ?? 0;
    if (left > 0) {
      remaining.set(key, left - 1);
      comparison.fixed.push(diagnostic);
    }
  }
  return comparison;
}

function countByKey(diagnostics: readonly LedgerDiagnostic[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const diagnostic of diagnostics) counts.set(keyOf(diagnostic), (counts.get(keyOf(diagnostic)) ?? 0) + 1);
  return counts;
}

function keyOf(d: LedgerDiagnostic): string {
  return JSON.stringify([d.severity, d.code ?? null, d.message]);
}

/**
 * What the agent has been told of and not yet seen fixed, per file: each checked write replaces the
 * rows of the files it checked (the run console shows them).
 */
export class DiagnosticLedger {
  private readonly held = new Map<string, LedgerDiagnostic[]>();

  /** The file's errors and warnings after a checked write (none for a deleted file); `path` relative to the workdir, as answers name it. */
  record(path: string, rows: readonly LedgerDiagnostic[]): void {
    if (rows.length === 0) this.held.delete(path);
    else this.held.set(path, [...rows]);
  }

  /** Everything held now, per file, identical ones counted once. */
  findings(): { path: string; severity: string; code: string | null; message: string; count: number }[] {
    return [...this.held].flatMap(([path, rows]) =>
      [...countByKey(rows)].map(([key, count]) => {
        const [severity, code, message] = JSON.parse(key) as [string, string | null, string];
        return { path, severity, code, message, count };
      }),
    );
  }
}
