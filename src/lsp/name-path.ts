// Name paths: a definition addressed by its path through the file's outline (`Parser/parse_args`, `outer/inner`, `name#2`).
import type { DocumentSymbol, Range, SymbolInformation } from "vscode-languageserver-protocol";
import { ToolFailure } from "../answer/failure.ts";
import { kindName } from "./symbol-kinds.ts";

/** One definition of a file's outline, with the path that names it. */
export interface Definition {
  name: string;
  kind: string;
  /** The name path's segments, outermost first: `(*Parser).Parse` and `Parser::parse` become two. */
  segments: string[];
  /** The whole definition as the server gives it. */
  range: Range;
  /** The name itself. */
  selectionRange: Range;
  children: Definition[];
  parent?: Definition;
}

interface NamePath {
  segments: string[];
  /** A leading `/`: the path starts at the file's top level. */
  absolute: boolean;
  /** `name#2`: the second definition the path matches, in source order. */
  pick?: number;
}

/** How many near names a `symbol_not_found` lists. */
const NEAREST_LISTED = 8;

export function parseNamePath(text: string): NamePath {
  const trimmed = text.trim();
  const suffix = /#(\d+)$/.exec(trimmed);
  const body = suffix ? trimmed.slice(0, -suffix[0].length) : trimmed;
  const absolute = body.startsWith("/");
  const segments = body.split("/").map((s) => s.trim()).filter(Boolean);
  if (segments.length === 0) throw new ToolFailure(`name_path ${JSON.stringify(text)} names nothing; pass e.g. "Parser/parse_args", "parse_args" or "parse_args#2".`, { code: "invalid_arguments" });
  return { segments, absolute, ...(suffix ? { pick: Number(suffix[1]) } : {}) };
}

/** Shown form of a definition's path: `Parser/parse_args`. */
export function shownNamePath(definition: Definition): string {
  return definition.segments.join("/");
}

/** The server's outline as a tree of definitions, children in source order. */
export function definitionsOf(answer: readonly (DocumentSymbol | SymbolInformation)[] | null | undefined): Definition[] {
  const list = answer ?? [];
  if (list.length > 0 && "location" in list[0]!) return fromFlat(list as SymbolInformation[]);
  const build = (symbols: readonly DocumentSymbol[], parent?: Definition): Definition[] =>
    [...symbols].sort(bySource).map((s) => {
      const definition: Definition = {
        name: s.name,
        kind: kindName(s.kind),
        segments: [...(parent?.segments ?? []), ...nameSegments(s.name)],
        range: s.range,
        selectionRange: s.selectionRange,
        children: [],
        ...(parent ? { parent } : {}),
      };
      definition.children = build(s.children ?? [], definition);
      return definition;
    });
  return build(list as DocumentSymbol[]);
}

/** A flat SymbolInformation list: the parent is the nearest enclosing symbol named as its container. */
function fromFlat(list: readonly SymbolInformation[]): Definition[] {
  const all = [...list]
    .sort((a, b) => a.location.range.start.line - b.location.range.start.line)
    .map((s): Definition & { container?: string } => ({
      name: s.name,
      kind: kindName(s.kind),
      segments: nameSegments(s.name),
      range: s.location.range,
      selectionRange: { start: s.location.range.start, end: s.location.range.start },
      children: [],
      ...(s.containerName ? { container: s.containerName } : {}),
    }));
  const top: Definition[] = [];
  for (const definition of all) {
    const parent = definition.container
      ? all.filter((p) => p !== definition && p.name === definition.container && contains(p.range, definition.range)).pop()
      : undefined;
    if (parent) {
      definition.parent = parent;
      definition.segments = [...parent.segments, ...definition.segments];
      parent.children.push(definition);
    } else top.push(definition);
  }
  return top;
}

/** Every definition of the tree, in source order (a parent before its children). */
function flatten(definitions: readonly Definition[]): Definition[] {
  return definitions.flatMap((d) => [d, ...flatten(d.children)]);
}

/**
 * The definitions a path names: its segments are the last ones of the definition's path (or all of
 * them, for an absolute path). Each segment is a whole name, compared exactly.
 */
export function matchNamePath(definitions: readonly Definition[], path: NamePath): Definition[] {
  const wanted = path.segments;
  return flatten(definitions).filter((d) => {
    if (path.absolute ? d.segments.length !== wanted.length : d.segments.length < wanted.length) return false;
    const tail = d.segments.slice(d.segments.length - wanted.length);
    return tail.every((segment, i) => segment === wanted[i]);
  });
}

/**
 * The one definition `text` names in a file. Several matches (without `#N`) are `ambiguous_symbol`
 * with each one's path and line; none is `symbol_not_found` with the nearest names the file holds.
 */
export function pickDefinition(definitions: readonly Definition[], text: string, shownFile: string): Definition {
  const path = parseNamePath(text);
  const found = matchNamePath(definitions, path);
  if (found.length === 0) throw notFound(definitions, path, text, shownFile);
  if (path.pick !== undefined) {
    const picked = found[path.pick - 1];
    if (!picked) {
      throw new ToolFailure(`${JSON.stringify(text)}: ${path.segments.join("/")} matches ${found.length} definition(s) in ${shownFile}, so #${path.pick} does not exist. ${listMatches(found, path)}`, {
        code: "symbol_not_found",
        matches: found.map(matchRow),
      });
    }
    return picked;
  }
  if (found.length > 1) {
    throw new ToolFailure(`${JSON.stringify(text)} matches ${found.length} definitions in ${shownFile}. ${listMatches(found, path)} Pass name_path as one of those.`, {
      code: "ambiguous_symbol",
      matches: found.map(matchRow),
    });
  }
  return found[0]!;
}

function listMatches(found: readonly Definition[], path: NamePath): string {
  const wanted = path.segments.join("/");
  const distinct = new Set(found.map(shownNamePath)).size === found.length;
  // Paths that tell them apart are offered as they are; same-named ones (overloads) by #N.
  return found.map((d, i) => `${distinct ? shownNamePath(d) : `${wanted}#${i + 1}`} (${d.kind}, line ${d.selectionRange.start.line + 1})`).join(", ") + ".";
}

function matchRow(d: Definition): Record<string, unknown> {
  return { name_path: shownNamePath(d), kind: d.kind, line: d.selectionRange.start.line + 1 };
}

function notFound(definitions: readonly Definition[], path: NamePath, text: string, shownFile: string): ToolFailure {
  const all = flatten(definitions);
  const last = path.segments[path.segments.length - 1]!.toLowerCase();
  const nearest = all
    .map((d) => ({ d, distance: nameDistance(last, d.name.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance || a.d.selectionRange.start.line - b.d.selectionRange.start.line)
    .slice(0, NEAREST_LISTED)
    .map(({ d }) => `${shownNamePath(d)} (line ${d.selectionRange.start.line + 1})`);
  const hint = all.length === 0 ? `The server lists no definitions in ${shownFile}.` : `Nearest names in ${shownFile}: ${nearest.join(", ")}.`;
  return new ToolFailure(`No definition in ${shownFile} has the name path ${JSON.stringify(text)}. ${hint} lsp symbols {file} shows the whole outline.`, {
    code: "symbol_not_found",
    nearest,
  });
}

/** Edit distance, with a name that contains the one asked for counted as near. */
function nameDistance(wanted: string, name: string): number {
  if (name.includes(wanted) || wanted.includes(name)) return Math.abs(name.length - wanted.length) / 10;
  const row = Array.from({ length: name.length + 1 }, (_, i) => i);
  for (let i = 1; i <= wanted.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= name.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (wanted[i - 1] === name[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[name.length]!;
}

/** gopls names a method `(*Parser).Parse`, clangd an out-of-line one `Parser::parse`: both are two segments. */
export function nameSegments(name: string): string[] {
  const method = /^\(\*?([^)]+)\)\.(.+)$/.exec(name);
  if (method) return [method[1]!, method[2]!];
  if (name.includes("::") && !name.startsWith("::")) return name.split("::").filter(Boolean);
  return [name];
}

/** Kinds that hold code: a use inside one of these is said to be in it. */
const SCOPES = new Set(["function", "method", "constructor"]);

/**
 * The innermost definition whose whole range holds the position, leaving out one named right there
 * (a declaration is not inside itself) and the locals of functions: a use in `const flags =
 * this.parseArgs(argv)` is in the method, not in `flags`.
 */
export function enclosingDefinition(definitions: readonly Definition[], position: { line: number; character: number }): Definition | undefined {
  let best: Definition | undefined;
  for (const d of flatten(definitions)) {
    if (!containsPosition(d.range, position) || containsPosition(d.selectionRange, position)) continue;
    if (!SCOPES.has(d.kind) && hasScopeAbove(d)) continue;
    if (!best || contains(best.range, d.range)) best = d;
  }
  return best;
}

function hasScopeAbove(d: Definition): boolean {
  for (let up = d.parent; up; up = up.parent) if (SCOPES.has(up.kind)) return true;
  return false;
}

/** The innermost definition whose name is at the position. */
export function definitionNamedAt(definitions: readonly Definition[], position: { line: number; character: number }): Definition | undefined {
  return flatten(definitions)
    .filter((d) => containsPosition(d.selectionRange, position) || (d.selectionRange.start.line === position.line && d.selectionRange.start.character === position.character))
    .pop();
}

function bySource(a: DocumentSymbol, b: DocumentSymbol): number {
  return a.selectionRange.start.line - b.selectionRange.start.line || a.selectionRange.start.character - b.selectionRange.start.character;
}

function before(a: { line: number; character: number }, b: { line: number; character: number }): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character);
}

function containsPosition(range: Range, p: { line: number; character: number }): boolean {
  return before(range.start, p) && before(p, range.end);
}

function contains(outer: Range, inner: Range): boolean {
  return before(outer.start, inner.start) && before(inner.end, outer.end);
}
