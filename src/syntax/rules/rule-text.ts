// A rule config given as text (ast-grep's YAML, or JSON) read into a value for validate.ts to check.
// The YAML parser is imported on the first rule given as text, not with the server: it took about
// 10 ms of every start, on the main thread, for a rule most runs never get.
import { RuleConfigError } from "./rule-error.ts";

/** The value a rule config's text holds. YAML is a superset of JSON, so one parser reads both; its errors carry the line and column. */
export async function ruleTextValue(source: string): Promise<unknown> {
  const { parseDocument } = await import("yaml");
  const doc = parseDocument(source);
  const error = doc.errors[0];
  if (error) {
    const at = error.linePos?.[0];
    const where = at ? ` at line ${at.line}, column ${at.col}` : "";
    // The parser's own message repeats the place and draws the line; the place is said once, first.
    const what = error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    const line = at ? source.split("\n")[at.line - 1] : undefined;
    throw new RuleConfigError(
      `The rule is not valid YAML${where}: ${what}${line !== undefined ? ` (the line: ${JSON.stringify(line)})` : ""}. Write it as ast-grep's YAML (rule:\\n  pattern: foo($A)) or as a JSON object.`,
    );
  }
  return doc.toJS();
}
