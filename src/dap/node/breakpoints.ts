// Line and function breakpoints placed in V8: by URL for JavaScript files, through source maps for TypeScript.
import { pathToFileURL } from "node:url";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { CdpClient } from "./cdp.ts";
import { v8Condition, type BreakpointOptions } from "./breakpoint-conditions.ts";
import type { ScriptTable } from "./scripts.ts";

interface LineSpec extends BreakpointOptions {
  line: number;
}

/** One DAP breakpoint and the V8 breakpoints that stand for it (one per script mapped from its file). */
interface Placed {
  id: number;
  path: string;
  spec: LineSpec;
  condition: string | undefined;
  v8Ids: string[];
  /** Scripts it was placed in through their source map (so a script loaded later gets it once). */
  scripts: Set<string>;
}

interface FunctionEntry {
  name: string;
  condition: string | undefined;
  v8Ids: string[];
  /** Scripts already searched for it. */
  scanned: Set<string>;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A file as V8 may name its script: its path, or its file:// URL. */
const fileUrlRegex = (path: string) => `^(${escapeRegex(pathToFileURL(path).href)}|${escapeRegex(path)})$`;

/** Every script loaded from a file outside node_modules. */
const USER_SCRIPTS = "^(file://)?/(?!.*/node_modules/)";

export class Breakpoints {
  private nextId = 1;
  private generation = 0;
  private readonly byFile = new Map<string, Placed[]>();
  private functions: FunctionEntry[] = [];
  /** V8 breakpoint id → what the user set: the stop's reason says which kind was hit. */
  private readonly kinds = new Map<string, "breakpoint" | "function breakpoint">();
  /**
   * Our own breakpoints on the first statement of scripts not loaded yet: a TypeScript file with
   * breakpoints (by its path), or every user script while function breakpoints exist ("*"). V8 binds
   * them as it compiles the script, so the program stops before the script runs and the real
   * breakpoints go in through its source map. (V8's instrumentation pause before a script is not
   * hit for the modules tsx loads.)
   */
  private readonly entries = new Map<string, string>();
  /** Where the mapped breakpoints of the last script entered were placed. */
  private placedAt: { scriptId: string; lineNumber: number; columnNumber?: number }[] = [];

  constructor(
    private readonly cdp: CdpClient,
    private readonly scripts: ScriptTable,
  ) {}

  /** Whether the stop is at one of our entry breakpoints (a script about to run), not the user's. */
  isEntry(v8Ids: readonly string[]): boolean {
    const ours = new Set(this.entries.values());
    return v8Ids.length > 0 && v8Ids.every((id) => ours.has(id));
  }

  /**
   * A script is about to run: its file's breakpoints (through its source map) and the function
   * breakpoints go in. True when one of them is where the program stands, so the stop is the user's.
   */
  async entered(scriptId: string, at: { lineNumber: number; columnNumber?: number }): Promise<boolean> {
    this.placedAt = [];
    await this.scriptLoaded(scriptId);
    await this.scriptLoadedForFunctions(scriptId);
    return this.placedAt.some((place) => place.scriptId === scriptId && place.lineNumber === at.lineNumber && (place.columnNumber ?? 0) === (at.columnNumber ?? 0));
  }

  private async ensureEntry(key: string, urlRegex: string): Promise<void> {
    if (this.entries.has(key)) return;
    const result = await this.cdp.send("Debugger.setBreakpointByUrl", { urlRegex, lineNumber: 0, columnNumber: 0 });
    this.entries.set(key, result.breakpointId);
  }

  private async dropEntry(key: string): Promise<void> {
    const id = this.entries.get(key);
    if (id === undefined) return;
    this.entries.delete(key);
    await this.cdp.send("Debugger.removeBreakpoint", { breakpointId: id }).catch(() => undefined);
  }

  kindOf(v8Ids: readonly string[]): "breakpoint" | "function breakpoint" | undefined {
    for (const id of v8Ids) {
      const kind = this.kinds.get(id);
      if (kind) return kind;
    }
    return undefined;
  }

  /** Replaces the file's breakpoints. */
  async setLines(path: string, specs: readonly LineSpec[]): Promise<DebugProtocol.Breakpoint[]> {
    for (const old of this.byFile.get(path) ?? []) await this.removeAll(old.v8Ids);
    const generation = ++this.generation;
    const placed: Placed[] = [];
    const answers: DebugProtocol.Breakpoint[] = [];
    for (const spec of specs) {
      const id = this.nextId++;
      const made = v8Condition(spec, `${generation}:${id}`);
      if ("refused" in made) {
        answers.push({ id, verified: false, line: spec.line, message: made.refused });
        continue;
      }
      const entry: Placed = { id, path, spec, condition: made.condition, v8Ids: [], scripts: new Set() };
      placed.push(entry);
      answers.push(await (this.scripts.isMappedSource(path) ? this.placeMapped(entry) : this.placeByUrl(entry)));
    }
    this.byFile.set(path, placed);
    if (this.scripts.isMappedSource(path) && placed.length && !this.scripts.generatedFrom(path)) await this.ensureEntry(path, fileUrlRegex(path));
    else await this.dropEntry(path);
    return answers;
  }

  /** A script with a source map was parsed (and is held before it runs): the breakpoints of its sources go in now. */
  async scriptLoaded(scriptId: string): Promise<void> {
    for (const [path, entries] of this.byFile) {
      if (!this.scripts.isMappedSource(path)) continue;
      for (const entry of entries) if (!entry.scripts.has(scriptId)) await this.placeMapped(entry, scriptId);
    }
  }

  private async placeByUrl(entry: Placed): Promise<DebugProtocol.Breakpoint> {
    const result = await this.cdp.send("Debugger.setBreakpointByUrl", {
      urlRegex: fileUrlRegex(entry.path),
      lineNumber: entry.spec.line - 1,
      ...(entry.condition ? { condition: entry.condition } : {}),
    });
    this.track(entry, result.breakpointId);
    const location = result.locations[0];
    // Not loaded yet: V8 binds it when the file loads (the sidecar checked the line has code).
    if (!location) return { id: entry.id, verified: true, line: entry.spec.line, message: "placed; it binds when the file loads" };
    return { id: entry.id, verified: true, line: location.lineNumber + 1 };
  }

  private async placeMapped(entry: Placed, onlyScript?: string): Promise<DebugProtocol.Breakpoint> {
    const places = this.scripts.generated(entry.path, entry.spec.line, onlyScript);
    let line: number | undefined;
    for (const place of places) {
      entry.scripts.add(place.scriptId);
      const result = await this.cdp
        .send("Debugger.setBreakpoint", { location: place, ...(entry.condition ? { condition: entry.condition } : {}) })
        .catch(() => undefined);
      if (!result) continue;
      this.track(entry, result.breakpointId);
      this.placedAt.push(result.actualLocation);
      line ??= this.scripts.original(result.actualLocation)?.line;
    }
    if (line !== undefined) return { id: entry.id, verified: true, line };
    if (onlyScript === undefined && places.length === 0) {
      return { id: entry.id, verified: true, line: entry.spec.line, message: "placed through the source map when the file loads" };
    }
    return { id: entry.id, verified: false, line: entry.spec.line, message: "no JavaScript was generated for this line (a type or a declaration only)" };
  }

  /** Replaces the function breakpoints: each name is found in the user's scripts loaded so far, and in scripts loaded later. */
  async setFunctions(specs: readonly (BreakpointOptions & { name: string })[]): Promise<DebugProtocol.Breakpoint[]> {
    for (const old of this.functions) await this.removeAll(old.v8Ids);
    const generation = ++this.generation;
    this.functions = [];
    const answers: DebugProtocol.Breakpoint[] = [];
    for (const spec of specs) {
      const made = v8Condition(spec, `${generation}:f:${spec.name}`);
      if ("refused" in made) {
        answers.push({ verified: false, message: made.refused });
        continue;
      }
      const entry: FunctionEntry = { name: spec.name, condition: made.condition, v8Ids: [], scanned: new Set() };
      this.functions.push(entry);
      let found = 0;
      for (const script of this.scripts.userScripts()) found += await this.placeFunction(entry, script.id);
      answers.push({ verified: true, ...(found ? {} : { message: "no such function in the scripts loaded so far; looked for in each script that loads" }) });
    }
    if (this.functions.length) await this.ensureEntry("*", USER_SCRIPTS);
    else await this.dropEntry("*");
    return answers;
  }

  async scriptLoadedForFunctions(scriptId: string): Promise<void> {
    for (const entry of this.functions) await this.placeFunction(entry, scriptId);
  }

  /**
   * Before the program first runs (the `--inspect-brk` stop): the main script is parsed by then, and
   * was not there when the breakpoints were set.
   */
  async placeInLoadedScripts(): Promise<void> {
    for (const script of this.scripts.userScripts()) {
      await this.scriptLoaded(script.id);
      await this.scriptLoadedForFunctions(script.id);
    }
  }

  /** Breaks at the first statement of each declaration of `name` in the script (function, method, or a function or arrow bound to it). */
  private async placeFunction(entry: FunctionEntry, scriptId: string): Promise<number> {
    if (entry.scanned.has(scriptId)) return 0;
    entry.scanned.add(scriptId);
    const name = escapeRegex(entry.name.split(".").pop()!);
    const query = `(function\\s*\\*?\\s+${name}\\s*\\(|\\b${name}\\s*[:=]\\s*(async\\s+)?(function\\b|\\([^)]*\\)\\s*=>|[A-Za-z_$][\\w$]*\\s*=>)|^\\s*(async\\s+|static\\s+)*${name}\\s*\\([^)]*\\)\\s*\\{)`;
    const matches = await this.cdp.send("Debugger.searchInContent", { scriptId, query, isRegex: true }).catch(() => undefined);
    let placed = 0;
    const lineNumbers = [...new Set((matches?.result ?? []).map((match) => match.lineNumber))];
    const source = lineNumbers.length ? await this.cdp.send("Debugger.getScriptSource", { scriptId }).catch(() => undefined) : undefined;
    const lines = source?.scriptSource.split("\n") ?? [];
    // Each match within its line: tsx's CommonJS output is one line, whose first `{` is in esbuild's __name helper.
    const places = lineNumbers.flatMap((line) => [...(lines[line] ?? "").matchAll(new RegExp(query, "g"))].map((found) => bodyStart(lines, line, found.index)));
    for (const body of places) {
      if (!body) continue;
      const result = await this.cdp
        .send("Debugger.setBreakpoint", { location: { scriptId, ...body }, ...(entry.condition ? { condition: entry.condition } : {}) })
        .catch(() => undefined);
      if (!result) continue;
      entry.v8Ids.push(result.breakpointId);
      this.kinds.set(result.breakpointId, "function breakpoint");
      placed++;
    }
    return placed;
  }

  /** Every V8 breakpoint (line and function) is cleared: a detached program must not halt with no client. */
  async clearAll(): Promise<void> {
    for (const entries of this.byFile.values()) for (const entry of entries) await this.removeAll(entry.v8Ids);
    for (const entry of this.functions) await this.removeAll(entry.v8Ids);
    for (const key of [...this.entries.keys()]) await this.dropEntry(key);
    this.byFile.clear();
    this.functions = [];
  }

  private track(entry: Placed, v8Id: string): void {
    entry.v8Ids.push(v8Id);
    this.kinds.set(v8Id, "breakpoint");
  }

  private async removeAll(v8Ids: string[]): Promise<void> {
    for (const breakpointId of v8Ids.splice(0)) {
      this.kinds.delete(breakpointId);
      await this.cdp.send("Debugger.removeBreakpoint", { breakpointId }).catch(() => undefined);
    }
  }
}

/** The place just inside the `{` that opens the body declared at `line`:`column` (or an arrow's expression body): V8 moves it to the body's first statement. */
function bodyStart(lines: readonly string[], line: number, column: number): { lineNumber: number; columnNumber: number } | undefined {
  for (let at = line; at < Math.min(lines.length, line + 5); at++) {
    const from = at === line ? column : 0;
    const open = at === line ? lines[at]!.indexOf("(", from) : 0;
    const arrow = at === line ? lines[at]!.slice(from).search(/=>\s*[^{\s]/) : -1;
    const brace = open >= 0 ? lines[at]!.indexOf("{", open) : -1;
    if (arrow >= 0 && (brace < 0 || from + arrow < brace)) return { lineNumber: at, columnNumber: from + arrow + 2 };
    if (brace >= 0) return { lineNumber: at, columnNumber: brace + 1 };
  }
  return undefined;
}
