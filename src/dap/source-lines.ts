// The text of a source line for a frame, read once per file per session, and paths shown workspace-relative.
import { isInside, relativeToWorkdir } from "../workspace/paths.ts";
import { readRegularFileSync } from "../workspace/regular-file.ts";
import { capValue } from "../tool/budget.ts";

/** A source line longer than this is cut (minified code would flood the report). */
const SOURCE_LINE_CHARS = 200;

export class SourceLines {
  private readonly files = new Map<string, string[] | undefined>();

  constructor(private readonly workdir: string) {}

  /** "src/app.py" inside the workspace; the absolute path for library code outside it. */
  shown(path: string): string {
    return isInside(this.workdir, path) ? relativeToWorkdir(this.workdir, path) : path;
  }

  line(path: string, line: number): string | undefined {
    if (!this.files.has(path)) {
      let lines: string[] | undefined;
      try {
        lines = readRegularFileSync(path).toString("utf8").split(/\r?\n/); // a FIFO would block the main thread
      } catch {
        lines = undefined; // a frame in a file we cannot read (a runtime's source, a deleted file)
      }
      this.files.set(path, lines);
    }
    const text = this.files.get(path)?.[line - 1];
    return text === undefined ? undefined : capValue(text.trim(), SOURCE_LINE_CHARS);
  }
}
