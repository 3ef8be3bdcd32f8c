// The error of a rule config that cannot be searched: a key, value or name the rule gets wrong.
// Its own file, apart from validate.ts: the parse workers throw it while compiling a rule, and
// validate.ts's YAML reader (about 10 ms to load) is the main thread's alone.
import { PatternError } from "../pattern.ts";

export class RuleConfigError extends PatternError {
  override name = "RuleConfigError";
}
