// C-family includes read from disk: which files include a header, and a rename through clangd held to them (every includer using the name is in the edit, or it is refused).
import { readdir, readFile } from "node:fs/promises";
import { basename, extname, join, sep } from "node:path";
import type { Location, LocationLink, Position, WorkspaceEdit } from "vscode-languageserver-protocol";
import { ToolFailure } from "../answer/failure.ts";
import { relativeToWorkdir } from "../workspace/paths.ts";
import { SKIPPED_FOLDERS } from "../workspace/project-roots.ts";
import { shownPath } from "../workspace/shown-path.ts";
import type { LanguageServerClient } from "./client.ts";
import type { ServerSpec } from "./catalog.ts";
import { collectDiagnostics } from "./diagnostics.ts";
import { openDocument, reopenDocument, uriOf } from "./documents.ts";
import { pathOfUri } from "./present.ts";

/** Source files read to find the uses of a name; past this the scan stops and says so. */
const FILES_SCANNED_MAX = 20_000;
/**
 * Uses outside the edit asked for their definition, at most (about a millisecond each on clangd);
 * any left unasked refuse the rename, so a common name used as a local in many includers needs room.
 */
export const USES_ASKED = 200;
/** Uses a refusal lists. */
const USES_LISTED = 10;

/**
 * clangd (14, Debian 12's) parses each file against the headers it includes as they are on disk,
 * never as another open document holds them, and finds a rename's other files through its index.
 * So a rename through it is checked on disk, and its edit is held to what the files say.
 */
export function readsIncludesFromDisk(spec: ServerSpec): boolean {
  return basename(spec.command) === "clangd";
}

/** A file other C-family files include. */
export function isHeader(path: string): boolean {
  return /\.(h|hh|hpp|hxx|inc)$/.test(path);
}

interface UseOfName {
  path: string;
  /** 0-based, UTF-16. */
  position: Position;
}

/**
 * The source files under `root` that include one of `targets`, directly or through other headers
 * (matched by #include path suffix: the -I paths are the compiler's), with their text.
 */
export async function includersOf(root: string, spec: ServerSpec, targets: ReadonlySet<string>): Promise<{ includers: string[]; sources: Map<string, Source>; scanned: number; capped: boolean }> {
  const { files, capped } = await sourceFiles(root, new Set(spec.extensions));
  const sources = new Map<string, Source>();
  await Promise.all(
    files.map(async (path) => {
      const text = await readFile(path, "utf8").catch(() => undefined);
      if (text !== undefined) sources.set(path, { text, includes: [...text.matchAll(INCLUDE)].map((m) => m[1]!.replace(/^\.\//, "")) });
    }),
  );
  const reached = new Set(targets);
  const byBasename = new Map<string, string[]>();
  const note = (path: string) => byBasename.set(basename(path), [...(byBasename.get(basename(path)) ?? []), path]);
  for (const path of reached) note(path);
  const includesReached = (includes: readonly string[]) =>
    includes.some((included) => (byBasename.get(basename(included)) ?? []).some((path) => path === included || path.endsWith(sep + included.split("/").join(sep))));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [path, { includes }] of sources) {
      if (reached.has(path) || !includesReached(includes)) continue;
      reached.add(path);
      note(path);
      grew = true;
    }
  }
  return { includers: [...reached].filter((path) => !targets.has(path)), sources, scanned: files.length, capped };
}

interface Source {
  text: string;
  includes: string[];
}

/**
 * Uses of `name` (as code: comments and strings are blanked) in files under `root` that include an
 * edited file, directly or through other headers, and that the edit does not touch.
 */
export async function usesOutsideEdit(root: string, spec: ServerSpec, edited: ReadonlySet<string>, name: string): Promise<{ uses: UseOfName[]; scanned: number; capped: boolean }> {
  const { includers, sources, scanned, capped } = await includersOf(root, spec, edited);
  const word = new RegExp(`(?<![\\p{L}\\p{N}_$])${name.replace(/[$]/g, "\\$")}(?![\\p{L}\\p{N}_$])`, "gu");
  const uses: UseOfName[] = [];
  for (const path of includers) {
    const text = sources.get(path)?.text;
    if (!text) continue;
    blankCommentsAndStrings(text)
      .split("\n")
      .forEach((line, index) => {
        for (const match of line.matchAll(word)) uses.push({ path, position: { line: index, character: match.index } });
      });
  }
  return { uses, scanned, capped };
}

/**
 * Of the uses the edit left out, those that are the renamed symbol (their definition lands on a
 * place the edit renames): a local of the same name in another file is not one. The caller has
 * had the files parsed against the headers on disk (`reparse`), so no answer is about a header's
 * older text.
 */
export async function missedUses(client: LanguageServerClient, uses: readonly UseOfName[], edit: WorkspaceEdit, signal?: AbortSignal): Promise<{ missed: UseOfName[]; unasked: number }> {
  const renamed = renamedPlaces(edit);
  const asked = uses.slice(0, USES_ASKED);
  const missed: UseOfName[] = [];
  for (const use of asked) {
    const answer = await client.query<Location | Location[] | LocationLink[] | null>("textDocument/definition", { textDocument: { uri: uriOf(use.path) }, position: use.position }, signal).catch(() => null);
    const places = answer === null ? [] : Array.isArray(answer) ? answer : [answer];
    const lands = places.some((place) => {
      const [uri, start] = "targetUri" in place ? [place.targetUri, place.targetSelectionRange.start] : [place.uri, place.range.start];
      return renamed.has(`${uri}#${start.line}:${start.character}`);
    });
    if (lands) missed.push(use);
  }
  return { missed, unasked: uses.length - asked.length };
}

/** Each file sent to the server again (opened, or its text re-sent), and its diagnostics awaited: the server has parsed it against the disk. */
export async function reparse(client: LanguageServerClient, paths: readonly string[], signal?: AbortSignal): Promise<void> {
  await Promise.all(
    paths.map(async (path) => {
      const uri = uriOf(path);
      let open = client.documents.get(uri);
      if (open) reopenDocument(client, uri, open);
      else {
        const text = await readFile(path, "utf8").catch(() => undefined);
        if (text === undefined) return;
        open = openDocument(client, path, text);
      }
      await collectDiagnostics(client, { uri, version: open.version, text: open.text, changed: true }, signal).catch(() => undefined);
    }),
  );
}

/** The refusal: the server's rename leaves out uses of the name that the files on disk hold (or too many to check). */
export function staleIndexFailure(workdir: string, spec: ServerSpec, name: string, missed: readonly UseOfName[], unasked: number): ToolFailure {
  const listed = missed.slice(0, USES_LISTED).map((use) => `  ${shownPath(relativeToWorkdir(workdir, use.path))}:${use.position.line + 1}:${use.position.character + 1}`);
  const more = missed.length > USES_LISTED ? [`  (${USES_LISTED} of ${missed.length} shown)`] : [];
  const found = missed.length
    ? `the ${spec.id} server's rename leaves out ${missed.length} use(s) of it in files that include the files it edits — its index is behind the files on disk:\n${[...listed, ...more].join("\n")}`
    : `the ${spec.id} server's rename leaves out uses of the name in files that include the files it edits, too many to check one by one (${USES_ASKED} were, and were other symbols of that name)`;
  const unaskedLine = missed.length && unasked ? `\n${unasked} more use(s) of the name were not checked.` : "";
  return new ToolFailure(
    `The rename of ${name} was not written: ${found}${unaskedLine}\n` +
      "Nothing was changed. Retry in a few seconds (the server indexes in the background); if it persists, check that compile_commands.json lists these files, or run the lsp reload action for this root.",
    { code: "not_ready", unchecked: unasked, missed: missed.map((use) => ({ path: relativeToWorkdir(workdir, use.path), line: use.position.line + 1, column: use.position.character + 1 })) },
  );
}

/** Where the edit renames something: uri#line:character of each replaced range's start. */
function renamedPlaces(edit: WorkspaceEdit): Set<string> {
  const places = new Set<string>();
  const add = (uri: string, edits: readonly { range: { start: Position } }[]) => {
    for (const e of edits) places.add(`${uri}#${e.range.start.line}:${e.range.start.character}`);
  };
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) add(uri, edits);
  for (const change of edit.documentChanges ?? []) if ("textDocument" in change) add(change.textDocument.uri, change.edits);
  return places;
}

/** The paths a workspace edit changes the text of. */
export function editedPaths(edit: WorkspaceEdit): Set<string> {
  const uris = [...Object.keys(edit.changes ?? {}), ...(edit.documentChanges ?? []).flatMap((change) => ("textDocument" in change ? [change.textDocument.uri] : []))];
  return new Set(uris.map(pathOfUri));
}

const INCLUDE = /^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]/gm;

/** Comments, string and character literals replaced by spaces, newlines kept: a name there is no use. */
function blankCommentsAndStrings(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, (match) => match.replace(/[^\n]/g, " "));
}

async function sourceFiles(root: string, extensions: ReadonlySet<string>): Promise<{ files: string[]; capped: boolean }> {
  const files: string[] = [];
  let capped = false;
  const visit = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (files.length >= FILES_SCANNED_MAX) {
        capped = true;
        return;
      }
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith(".")) await visit(path);
      } else if (entry.isFile() && extensions.has(extname(entry.name))) files.push(path);
    }
  };
  await visit(root);
  return { files, capped };
}
