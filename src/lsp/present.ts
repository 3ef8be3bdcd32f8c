// Turning LSP answers into what a model reads: workspace-relative paths, 1-based lines, the source line.
import { fileURLToPath } from "node:url";
import type { Diagnostic, Location, LocationLink } from "vscode-languageserver-protocol";
import { capValue } from "../tool/budget.ts";
import { isInside, NoLongerInside, readLocationFile, relativeToWorkdir } from "../workspace/paths.ts";
import { splitLines } from "./position.ts";
import { shownPath } from "../workspace/shown-path.ts";

/** A preview line longer than this is cut (minified files would otherwise flood the answer). */
const PREVIEW_MAX_CHARS = 200;

export interface PlaceRow {
  path: string;
  line: number;
  preview: string;
}

export interface DiagnosticRow {
  path: string;
  line: number;
  severity: "error" | "warning" | "info" | "hint";
  code?: string;
  source?: string;
  message: string;
}

const SEVERITIES = ["error", "error", "warning", "info", "hint"] as const;

/** What a location inside the workspace shows instead of its line when a symlink there leads out of it. */
export const LINKED_OUT_PREVIEW = "(text not shown: a symlink in the workspace leads to this file outside it)";

/** Reads lines of files once per answer. */
export class SourceLines {
  private readonly cache = new Map<string, string[]>();
  private readonly linkedOut = new Set<string>();

  constructor(readonly workdir: string) {}

  line(path: string, line: number): string {
    if (this.linkedOut.has(path)) return LINKED_OUT_PREVIEW;
    let lines = this.cache.get(path);
    if (!lines) {
      try {
        lines = splitLines(readLocationFile(this.workdir, path).toString("utf8")); // regular files only: a FIFO would block the main thread
      } catch (error) {
        if (error instanceof NoLongerInside) {
          this.linkedOut.add(path); // asked for directly, this file is refused: its text must not come out here either
          return LINKED_OUT_PREVIEW;
        }
        lines = [];
      }
      this.cache.set(path, lines);
    }
    return capValue((lines[line - 1] ?? "").trim(), PREVIEW_MAX_CHARS);
  }

  /** Inside the workdir: relative; elsewhere (a library's .d.ts): absolute, so it is never mistaken for ours. */
  display(path: string): string {
    return isInside(this.workdir, path) ? relativeToWorkdir(this.workdir, path) : path;
  }

  place(uri: string, zeroBasedLine: number): PlaceRow {
    const path = pathOfUri(uri);
    return { path: this.display(path), line: zeroBasedLine + 1, preview: this.line(path, zeroBasedLine + 1) };
  }
}

export function pathOfUri(uri: string): string {
  return uri.startsWith("file:") ? fileURLToPath(uri) : uri;
}

/** Definition-like answers come as one Location, a list, or LocationLinks; all become rows. */
export function placesOf(answer: Location | Location[] | LocationLink[] | null | undefined, lines: SourceLines): PlaceRow[] {
  if (!answer) return [];
  const list = Array.isArray(answer) ? answer : [answer];
  return list.map((item) =>
    "targetUri" in item ? lines.place(item.targetUri, item.targetSelectionRange.start.line) : lines.place(item.uri, item.range.start.line),
  );
}

/**
 * Errors and warnings: what `diagnostics` and diagnostics on write report. Hints and infos
 * (tsserver's "declared but never read", 6133) are an editor's greying-out, not news after a write.
 */
export function isErrorOrWarning(diagnostic: Diagnostic): boolean {
  return (diagnostic.severity ?? 1) <= 2;
}

export function diagnosticRow(path: string, diagnostic: Diagnostic, lines: SourceLines): DiagnosticRow {
  return {
    path: lines.display(path),
    line: diagnostic.range.start.line + 1,
    severity: SEVERITIES[diagnostic.severity ?? 1] ?? "error",
    ...(diagnostic.code !== undefined ? { code: String(diagnostic.code) } : {}),
    ...(diagnostic.source ? { source: diagnostic.source } : {}),
    message: typeof diagnostic.message === "string" ? diagnostic.message : diagnostic.message.value,
  };
}

export function placeLine(row: PlaceRow): string {
  return `${shownPath(row.path)}:${row.line}: ${row.preview}`;
}

export function diagnosticLine(row: DiagnosticRow): string {
  return `${shownPath(row.path)}:${row.line}: ${row.severity}${row.code ? ` ${row.code}` : ""}: ${row.message}`;
}
