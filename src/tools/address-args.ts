// The arguments that point at code, as every tool taking a position or a definition takes them:
// a line + symbol, or a name path through the outline.
import * as v from "valibot";

export const namePathArg = v.pipe(
  v.string("expected a name path such as \"Parser/parse_args\""),
  v.minLength(1, "expected a name path, got an empty string"),
  v.maxLength(1_000, "a name path is at most 1000 characters"),
  v.description(
    'A definition by its path through the file\'s outline instead of line + symbol: "Parser/parse_args" (a method), "outer/inner", or a bare name "parse_args"; "/Parser" anchors at the top level; "name#2" picks the second of several matches. Without file, the workspace symbol search finds it.',
  ),
);

export function lineArg(description: string) {
  return v.pipe(v.number("expected a 1-based line number"), v.integer("expected a whole line number"), v.minValue(1, "lines are 1-based"), v.description(description));
}

export function symbolArg(description: string) {
  return v.pipe(v.string("expected the identifier as written on the line"), v.minLength(1, "expected an identifier, got an empty string"), v.description(description));
}

export function fileArg(description: string) {
  return v.pipe(v.string("expected a workspace-relative path"), v.minLength(1, "expected a path, got an empty string"), v.description(description));
}
