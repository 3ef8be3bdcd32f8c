// "Did you mean": the known name nearest a mistyped one, when it is near enough to be the intent.

/** Edits (insert, delete, replace, swap two neighbours) turning `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate the typo most likely meant: a unique one it starts (`--work` → workdir), else the
 * closest within about a third of its length. None when nothing is close: a wild guess misleads.
 */
export function nearest(typed: string, candidates: readonly string[]): string | undefined {
  const lower = typed.toLowerCase();
  const prefixed = candidates.filter((c) => lower.length >= 3 && c.startsWith(lower));
  if (prefixed.length === 1) return prefixed[0];
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(lower, name);
    if (distance <= Math.max(1, Math.floor(name.length / 3)) && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
