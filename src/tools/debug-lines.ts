// Checks breakpoint lines against the file before an adapter sees them: a comment or blank line
// moves to the next line of code, a line past the end or a missing file is refused with a sentence.
import { statSync } from "node:fs";
import { codeLines } from "../syntax/code-lines.ts";
import type { SyntaxService } from "../syntax/service.ts";
import { ToolFailure } from "../answer/failure.ts";
import { readFileInside, relativeToWorkdir } from "../workspace/paths.ts";
import { shownPath } from "../workspace/shown-path.ts";

/** Files larger than this are not parsed to check lines; their lines are sent as given. */
const MAX_CHECKED_BYTES = 2 * 1024 * 1024;

export type LineVerdict =
  | { line: number; kind: "code" }
  | { line: number; kind: "moved"; to: number; why: "comment" | "blank" }
  | { line: number; kind: "unknown" };

/**
 * Adapters answer such lines badly: debugpy calls a breakpoint on a comment "verified" and never
 * stops there, lldb moves line 200 of a 57-line file to 57. Code lines come from tree-sitter when
 * the run has the parser, else from a line's first characters (a `#` or `//` comment, blank).
 */
export class SourceLineCheck {
  constructor(
    private readonly workdir: string,
    private readonly syntax: SyntaxService | undefined,
  ) {}

  async check(path: string, lines: readonly number[]): Promise<LineVerdict[]> {
    const shown = shownPath(relativeToWorkdir(this.workdir, path));
    let size: number;
    try {
      const stats = statSync(path);
      if (!stats.isFile()) throw new ToolFailure(`${shown} is not a regular file; breakpoints go in source files.`, { code: "not_a_regular_file" });
      size = stats.size;
    } catch (error) {
      if (error instanceof ToolFailure) throw error;
      throw new ToolFailure(`There is no file ${shown} in the workspace; pass the path of a source file relative to the workspace root.`, { code: "file_not_found" });
    }
    if (size > MAX_CHECKED_BYTES) return lines.map((line) => ({ line, kind: "unknown" }));
    const text = readFileInside(this.workdir, path).toString("utf8");
    const count = text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
    const past = lines.filter((line) => line > count);
    if (past.length) {
      throw new ToolFailure(`${shown} has ${count} lines; line${past.length > 1 ? "s" : ""} ${past.join(", ")} ${past.length > 1 ? "are" : "is"} past its end. Nothing was set.`, { code: "invalid_arguments" });
    }
    const code = await codeLines(this.syntax, path, text, count);
    return lines.map((line) => {
      if (code[line - 1]) return { line, kind: "code" };
      const next = code.findIndex((isCode, index) => isCode && index >= line);
      if (next === -1) throw new ToolFailure(`${shown}:${line} is ${blankOrComment(text, line)}, and no code follows it; pick a line with code.`, { code: "invalid_arguments" });
      return { line, kind: "moved", to: next + 1, why: blankOrComment(text, line) === "blank" ? "blank" : "comment" };
    });
  }
}

function blankOrComment(text: string, line: number): "blank" | "a comment" {
  return (text.split("\n")[line - 1] ?? "").trim() === "" ? "blank" : "a comment";
}
