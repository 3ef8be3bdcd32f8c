// One match as an answer carries it: where it starts and ends, its text, and what each metavariable bound.

export interface Position {
  line: number;
  column: number;
}

export interface MatchRecord {
  start: Position;
  end: Position;
  text: string;
  bindings: Record<string, string>;
}
