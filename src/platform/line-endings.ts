// Files keep their own line endings when a tool edits them: detect a file's, and write in it.

type LineEnding = "\n" | "\r\n";

/** The file's dominant line ending; LF when it has none or they tie. */
export function detectLineEnding(text: string): LineEnding {
  const crlf = text.match(/\r\n/g)?.length ?? 0;
  const lf = (text.match(/\n/g)?.length ?? 0) - crlf;
  return crlf > lf ? "\r\n" : "\n";
}

/** Rewrites every line break in `text` to `ending`. */
export function withLineEnding(text: string, ending: LineEnding): string {
  const normalized = text.replace(/\r\n/g, "\n");
  return ending === "\n" ? normalized : normalized.replace(/\n/g, "\r\n");
}
