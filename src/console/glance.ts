// The shape of the console's run at a glance: each resource of the run contributes sections of rows
// (run/resources/<name>.ts), the run adds its surfaces and facts (run/glance.ts).

export interface GlanceRow {
  name: string;
  state: string;
  detail?: string;
}

/** One panel of the run at a glance: rows of name, state and detail. */
export interface GlanceSection {
  title: string;
  rows: GlanceRow[];
  /** What the panel says when it has no rows ("No kernel yet: …"). */
  empty?: string;
  /** Said under the rows, e.g. "50 of 212 shown". */
  note?: string;
}
