// Turning LSP answers into what a model reads: workspace-relative paths, 1-based lines, the source line.
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Diagnostic, Location, LocationLink } from "vscode-languageserver-protocol";
import { capValue } from "../tool/budget.ts";
import { isInside, NoLongerInside, readLocationFile, relativeToWorkdir } from "../workspace/paths.ts";
import { splitLines } from "./position.ts";
import { shownPath } from "../workspace/shown-path.ts";

/** A preview line longer than this is cut (minified files would otherwise flood the answer). */
const PREVIEW_MAX_CHARS = 200;

export interface PlaceRow {
  /** Workspace-relative inside the workdir; absolute outside it. */
  path: string;
  line: number;
  /** 1-based, in UTF-16 code units as the server counts: two uses on one line are two rows. */
  column: number;
  /** The source line; LINKED_OUT_PREVIEW for a file outside the workdir reached through a workspace symlink. */
  preview: string;
  /**
   * Set when the location is outside the workdir: "library" (the standard library, a dependency:
   * its text is shown) or "link" (reached through a symlink in the workspace: path only, as for
   * any file outside it that a tool is asked to read).
   */
  outside?: "library" | "link";
}

/** Where a path lies: inside the workdir, or outside as a library or through a workspace link. */
type Whereabouts = { inside: true; shown: string } | { inside: false; shown: string; outside: "library" | "link" };

/** Tells a library file from one the workspace reaches through a symlink (the workdir watcher knows the links). */
export interface LinkMap {
  reachedThroughLink(real: string): boolean;
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
  private readonly places = new Map<string, Whereabouts>();

  /** Without `links`, every file outside the workdir counts as reached through a link: no text. */
  constructor(
    readonly workdir: string,
    private readonly links?: LinkMap,
  ) {}

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

  /**
   * Inside the workdir means inside once symlinks are followed: `link_dir/mod.py` whose folder links
   * out is outside, and its text is not shown (asking for that file directly is refused too).
   */
  whereabouts(path: string): Whereabouts {
    let known = this.places.get(path);
    if (known) return known;
    let real = path;
    try {
      real = realpathSync(path);
    } catch {
      // Gone or unreadable: judged by the path as given.
    }
    if (isInside(this.workdir, real)) known = { inside: true, shown: relativeToWorkdir(this.workdir, isInside(this.workdir, path) ? path : real) };
    else if (isInside(this.workdir, path)) known = { inside: false, shown: relativeToWorkdir(this.workdir, path), outside: "link" };
    else known = { inside: false, shown: path, outside: this.links && !this.links.reachedThroughLink(real) ? "library" : "link" };
    this.places.set(path, known);
    return known;
  }

  place(uri: string, zeroBasedLine: number, zeroBasedColumn: number): PlaceRow {
    const path = pathOfUri(uri);
    const where = this.whereabouts(path);
    const preview = where.inside || where.outside === "library" ? this.line(path, zeroBasedLine + 1) : LINKED_OUT_PREVIEW;
    const row: PlaceRow = { path: where.shown, line: zeroBasedLine + 1, column: zeroBasedColumn + 1, preview };
    if (!where.inside) row.outside = where.outside;
    return row;
  }
}

export function pathOfUri(uri: string): string {
  return uri.startsWith("file:") ? fileURLToPath(uri) : uri;
}

/** Definition-like answers come as one Location, a list, or LocationLinks; all become rows. */
export function placesOf(answer: Location | Location[] | LocationLink[] | null | undefined, lines: SourceLines): PlaceRow[] {
  if (!answer) return [];
  const list = Array.isArray(answer) ? answer : [answer];
  const rows = list.map((item) => {
    const { start } = "targetUri" in item ? item.targetSelectionRange : item.range;
    return lines.place("targetUri" in item ? item.targetUri : item.uri, start.line, start.character);
  });
  // One row per location: the same location twice (a server listing a declaration as a reference too) is one.
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(`${row.path}:${row.line}:${row.column}`) && seen.add(`${row.path}:${row.line}:${row.column}`));
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
  const where = `${shownPath(row.path)}:${row.line}:${row.column}`;
  if (row.outside === "link" || row.preview === LINKED_OUT_PREVIEW) return `${where} ${LINKED_OUT_PREVIEW}`;
  return `${where}${row.outside ? " (outside the workspace)" : ""}: ${row.preview}`;
}

export function diagnosticLine(row: DiagnosticRow): string {
  return `${shownPath(row.path)}:${row.line}: ${row.severity}${row.code ? ` ${row.code}` : ""}: ${row.message}`;
}
