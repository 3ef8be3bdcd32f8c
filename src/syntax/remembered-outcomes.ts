// What earlier searches found in a cached file, per search: an agent repeats a search at once (to
// page, after a write elsewhere, after reading the answer), and a file unchanged since holds the
// same matches. Kept with the file's cache entry, so it goes when the file changes or is evicted.
import type { MatchRecord } from "./match-record.ts";

/** Searches remembered per file; past this the oldest go. */
const MAX_SEARCHES = 16;
/** A file with more matches than this is searched again rather than remembered (a `$X` over it would hold tens of thousands); imgui.cpp has 313 lines with `IM_ASSERT(`, and 200 left it to be parsed again on every repeat. */
export const MAX_REMEMBERED_MATCHES = 1000;

interface RememberedOutcome {
  count: number;
  /** Every match's record: an outcome is remembered only when it is whole. */
  matches: MatchRecord[];
  parseErrors?: number;
}

/** No match: most candidates of a search, shared by all of them. */
const NO_MATCH: RememberedOutcome = Object.freeze({ count: 0, matches: [] });

export class RememberedOutcomes {
  private readonly bySearch = new Map<string, RememberedOutcome>();

  get(search: string): RememberedOutcome | undefined {
    return this.bySearch.get(search);
  }

  /** Remembers a whole outcome; one whose records were cut by the answer's budget is not whole, and is not kept. */
  remember(search: string, outcome: RememberedOutcome): void {
    if (outcome.matches.length !== outcome.count || outcome.count > MAX_REMEMBERED_MATCHES) return;
    this.bySearch.delete(search);
    this.bySearch.set(search, outcome.count === 0 && !outcome.parseErrors ? NO_MATCH : outcome);
    if (this.bySearch.size > MAX_SEARCHES) this.bySearch.delete(this.bySearch.keys().next().value!);
  }
}
