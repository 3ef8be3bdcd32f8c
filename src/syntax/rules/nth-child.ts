// nthChild positions: a number, or CSS's An+B, read as ast-grep reads them (1-based, named siblings).
import { RuleConfigError } from "./rule-error.ts";

export interface Position {
  /** A in An+B; 0 for a plain number. */
  step: number;
  /** B in An+B, or the number. */
  offset: number;
}

export function parsePosition(position: number | string, path: string): Position {
  if (typeof position === "number") return { step: 0, offset: position };
  const text = position.replace(/\s+/g, "").toLowerCase();
  const found = /^([+-]?)(\d*)(n?)(?:([+-])(\d+))?$/.exec(text);
  if (!found || (found[3] === "" && (found[2] === "" || found[4] !== undefined))) {
    throw new RuleConfigError(`\`${path}\` is ${JSON.stringify(position)}; expected a number from 1 or An+B (2n+1, -n+3, odd positions as 2n+1).`);
  }
  const sign = found[1] === "-" ? -1 : 1;
  if (found[3] === "") return { step: 0, offset: sign * Number(found[2]) };
  const step = sign * (found[2] === "" ? 1 : Number(found[2]));
  const offset = found[4] === undefined ? 0 : (found[4] === "-" ? -1 : 1) * Number(found[5]);
  return { step, offset };
}

/** Whether the 0-based `index` is at the position, with Rust's integer division (towards zero), as ast-grep. */
export function isAtPosition({ step, offset }: Position, index: number): boolean {
  const oneBased = index + 1;
  if (step === 0) return oneBased === offset;
  const n = oneBased - offset;
  return Math.trunc(n / step) >= 0 && n % step === 0;
}
