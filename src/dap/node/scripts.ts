// The scripts V8 has parsed, their files, and the source maps that tie generated JavaScript to .ts lines.
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { GREATEST_LOWER_BOUND, LEAST_UPPER_BOUND, TraceMap, generatedPositionFor, originalPositionFor } from "@jridgewell/trace-mapping";
import type Protocol from "devtools-protocol";

/** A place in a file: 1-based line, 0-based column (the DAP client speaks 1-based lines). */
interface FilePlace {
  path: string;
  line: number;
  column: number;
}

/** A place in a script as V8 counts it: 0-based line and column. */
export interface ScriptPlace {
  scriptId: string;
  lineNumber: number;
  columnNumber?: number;
}

interface Script {
  id: string;
  url: string;
  /** The file it was loaded from, when it is one. */
  path?: string;
  map?: TraceMap;
  /** The map's sources as file paths, in the map's order (index = source index). */
  sources: (string | undefined)[];
}

/** A `file://` URL or an absolute path as V8 names a script; undefined for node: internals, eval code and the like. */
function pathOfUrl(url: string): string | undefined {
  if (url.startsWith("file://")) {
    try {
      return fileURLToPath(url);
    } catch {
      return undefined;
    }
  }
  return isAbsolute(url) ? url : undefined;
}

export class ScriptTable {
  private readonly scripts = new Map<string, Script>();

  /** Records a parsed script; its source map (inline, as tsx writes it, or a file beside it) is read now, before the script runs. */
  add(event: Protocol.Debugger.ScriptParsedEvent): { mapped: boolean } {
    const path = pathOfUrl(event.url);
    const script: Script = { id: event.scriptId, url: event.url, ...(path ? { path } : {}), sources: [] };
    if (event.sourceMapURL && path) {
      const map = readMap(event.sourceMapURL, path);
      if (map) {
        script.map = map;
        script.sources = map.resolvedSources.map((source) => (source ? pathOfUrl(source) : undefined));
      }
    }
    this.scripts.set(event.scriptId, script);
    return { mapped: script.map !== undefined };
  }

  url(scriptId: string): string | undefined {
    return this.scripts.get(scriptId)?.url;
  }

  /** Where a V8 location is in the files the user reads: the .ts line through the map, else the script's own file. */
  original(place: ScriptPlace): FilePlace | undefined {
    const script = this.scripts.get(place.scriptId);
    if (!script) return undefined;
    if (script.map) {
      const found = originalPositionFor(script.map, { line: place.lineNumber + 1, column: place.columnNumber ?? 0, bias: GREATEST_LOWER_BOUND });
      const path = found.source ? pathOfUrl(found.source) : undefined;
      if (path && found.line !== null) return { path, line: found.line, column: found.column ?? 0 };
    }
    return script.path ? { path: script.path, line: place.lineNumber + 1, column: place.columnNumber ?? 0 } : undefined;
  }

  /** Whether `path` reaches V8 only through a source map (a .ts file tsx compiled). */
  isMappedSource(path: string): boolean {
    return /\.[cm]?tsx?$/.test(path) || [...this.scripts.values()].some((script) => script.sources.includes(path));
  }

  /** Whether a loaded script was generated from `path` (through its source map). */
  generatedFrom(path: string): boolean {
    return [...this.scripts.values()].some((script) => script.sources.includes(path));
  }

  /** The generated places of `line` (1-based) of `path` in every loaded script mapped from it, or in `scriptId` alone. */
  generated(path: string, line: number, scriptId?: string): ScriptPlace[] {
    const scripts = scriptId ? [this.scripts.get(scriptId)].filter((s): s is Script => s !== undefined) : [...this.scripts.values()];
    const places: ScriptPlace[] = [];
    for (const script of scripts) {
      const index = script.sources.indexOf(path);
      if (!script.map || index < 0) continue;
      const source = script.map.resolvedSources[index]!;
      const found = generatedPositionFor(script.map, { source, line, column: 0, bias: LEAST_UPPER_BOUND });
      if (found.line === null) continue;
      // LEAST_UPPER_BOUND may find the next line's mapping when this one has none: that is not this line.
      const back = originalPositionFor(script.map, { line: found.line, column: found.column, bias: GREATEST_LOWER_BOUND });
      if (back.line !== line) continue;
      places.push({ scriptId: script.id, lineNumber: found.line - 1, columnNumber: found.column });
    }
    return places;
  }

  /** Scripts from the user's files (not node: internals, not node_modules), for function breakpoints. */
  userScripts(): { id: string; path: string }[] {
    return [...this.scripts.values()].flatMap((script) => (script.path && !script.path.includes("/node_modules/") ? [{ id: script.id, path: script.path }] : []));
  }
}

/** A source map from a data: URL or a file next to the script; undefined when it cannot be read (the script is then shown as it runs). */
function readMap(sourceMapURL: string, scriptPath: string): TraceMap | undefined {
  try {
    if (sourceMapURL.startsWith("data:")) {
      const comma = sourceMapURL.indexOf(",");
      const meta = sourceMapURL.slice(5, comma);
      const data = sourceMapURL.slice(comma + 1);
      const text = meta.endsWith(";base64") ? Buffer.from(data, "base64").toString("utf8") : decodeURIComponent(data);
      return new TraceMap(text, scriptPath);
    }
    const mapPath = pathOfUrl(sourceMapURL) ?? join(dirname(scriptPath), sourceMapURL);
    return new TraceMap(readFileSync(mapPath, "utf8"), mapPath);
  } catch {
    return undefined;
  }
}
