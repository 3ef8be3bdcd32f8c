// The navigation actions of `lsp`: a file, line and symbol become one LSP request and rows a model can read.
import type { CodeAction, Command, Hover, MarkupContent } from "vscode-languageserver-protocol";
import { ToolFailure } from "../answer/failure.ts";
import { resolveInWorkdir } from "../workspace/paths.ts";
import type { LanguageServerClient } from "./client.ts";
import { collectDiagnostics } from "./diagnostics.ts";
import { syncDocument, type SyncedDocument } from "./documents.ts";
import { bareSymbol, occurrences, resolveSymbolColumn, splitLines } from "./position.ts";
import type { Definition } from "./name-path.ts";
import { placesOf, type PlaceRow } from "./present.ts";
import type { LanguageServerSupervisor, ServerHandle } from "./supervisor.ts";

const NAVIGATION_METHODS = {
  definition: "textDocument/definition",
  type_definition: "textDocument/typeDefinition",
  implementation: "textDocument/implementation",
  references: "textDocument/references",
} as const;

const NAVIGATION_PROVIDERS = {
  definition: "definitionProvider",
  type_definition: "typeDefinitionProvider",
  implementation: "implementationProvider",
  references: "referencesProvider",
} as const;

export interface Target {
  supervisor: LanguageServerSupervisor;
  handle: ServerHandle;
  path: string;
  document: SyncedDocument;
  position: { line: number; character: number };
  /** The symbol as matched, without any #n suffix. */
  length: number;
  /** How answers name the place: "parse on line 12", "Parser/parse (line 12)". */
  label: string;
  /** Set when a name path named the place: the definition it names. */
  definition?: Definition;
}

/** Opens the file on its server and turns line + symbol into an LSP position. */
export async function locate(supervisor: LanguageServerSupervisor, file: string, line: number | undefined, symbol: string | undefined, action: string): Promise<Target> {
  if (line === undefined || symbol === undefined) {
    throw new ToolFailure(`${action} needs file, line and symbol — e.g. {"action": "${action}", "file": "src/a.ts", "line": 12, "symbol": "parseConfig"}. Positions are never guessed from a column.`, { code: "invalid_arguments" });
  }
  const path = resolveInWorkdir(supervisor.workdir, file);
  const handle = await supervisor.serverFor(path);
  const document = await syncDocument(handle.client, supervisor.workdir, path);
  await supervisor.current(handle.client);
  const lines = splitLines(document.text);
  if (line > lines.length) throw new ToolFailure(`${file} has ${lines.length} lines; line ${line} does not exist.`, { code: "symbol_not_found" });
  const column = resolveSymbolColumn(lines[line - 1]!, symbol, line);
  const bare = bareSymbol(symbol);
  // On a sigil-prefixed name ($VERSION, $gap, $name) the position is its first letter: the
  // Dockerfile server resolves nothing on the `$`, and every server resolves the letter.
  const sigil = bare.length > 1 && bare.startsWith("$") ? 1 : 0;
  const length = lines[line - 1]!.startsWith(bare, column.character) ? bare.length - sigil : symbol.length;
  return { supervisor, handle, path, document, position: { line: line - 1, character: column.character + sigil }, length, label: `${bare} on line ${line}` };
}

export async function navigate(target: Target, action: keyof typeof NAVIGATION_METHODS, signal?: AbortSignal): Promise<PlaceRow[]> {
  const { client } = target.handle;
  requireProvider(client, NAVIGATION_PROVIDERS[action], action);
  const params = {
    textDocument: { uri: target.document.uri },
    position: target.position,
    ...(action === "references" ? { context: { includeDeclaration: true } } : {}),
  };
  const answer = await client.query<Parameters<typeof placesOf>[0]>(NAVIGATION_METHODS[action], params, signal);
  const rows = placesOf(answer, target.supervisor.lines());
  if (rows.length === 0) refuseWhileIndexing(client);
  return rows;
}

/** Other lines of the file an empty answer names, at most this many. */
const ELSEWHERE_LISTED = 3;

/**
 * An empty navigation answer is "none found" only where the server knows a symbol: at a name in a
 * comment or a string it knows nothing (ky's `KyError` on a doc-comment line was "No references
 * found"). Asked for hover at the same place; when that is empty too, the answer is an error that
 * names the lines nearest to it where the name occurs.
 */
export async function refuseWhereNoSymbol(target: Target, symbol: string, line: number, signal?: AbortSignal): Promise<void> {
  const { client } = target.handle;
  if (!client.capabilities.hoverProvider) return;
  let text = "";
  try {
    text = await hover(target, signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    return; // no second opinion: the empty answer stands as it was
  }
  if (text) return;
  const bare = bareSymbol(symbol);
  const lines = splitLines(target.document.text);
  const elsewhere = lines
    .map((text, i) => ({ line: i + 1, text }))
    .filter((l) => l.line !== line && occurrences(l.text, bare).length > 0)
    .sort((a, b) => Math.abs(a.line - line) - Math.abs(b.line - line))
    .slice(0, ELSEWHERE_LISTED)
    .sort((a, b) => a.line - b.line);
  const hint = elsewhere.length
    ? ` It also occurs on line${elsewhere.length > 1 ? "s" : ""} ${elsewhere.map((l) => `${l.line} (${JSON.stringify(l.text.trim().slice(0, 80))})`).join(", ")}; point at a line where it is code.`
    : ` It occurs on no other line of the file; point at a line where it is code, or search with symbols and query.`;
  throw new ToolFailure(`The ${client.spec.id} server knows no symbol at ${bare} on line ${line} (no definition, references or hover there): a name in a comment or a string is not one.${hint}`, { code: "symbol_not_found" });
}

export async function hover(target: Target, signal?: AbortSignal): Promise<string> {
  requireProvider(target.handle.client, "hoverProvider", "hover");
  const answer = await target.handle.client.query<Hover | null>("textDocument/hover", { textDocument: { uri: target.document.uri }, position: target.position }, signal);
  const text = answer ? hoverText(answer.contents) : "";
  if (!text) refuseWhileIndexing(target.handle.client);
  return text;
}

interface CodeActionRow {
  /** 1-based, as code_action takes it. */
  number: number;
  title: string;
  kind?: string;
  preferred?: boolean;
}

/** Listings kept per server, so code_action's numbers are the ones lsp code_actions showed. */
const LISTINGS_KEPT = 32;
const listings = new WeakMap<LanguageServerClient, Map<string, (Command | CodeAction)[]>>();

function listingKey(target: Target): string {
  return `${target.document.uri}\0${target.document.version}\0${target.position.line}:${target.position.character}`;
}

/**
 * The list `lsp code_actions` last showed for this place of this version of the file: asked again,
 * a server may order or word its actions differently (tsserver lists more once its diagnostics are
 * in), and "action 2" must be the second action the model saw. Undefined once the file changed.
 */
export function listedCodeActions(target: Target): (Command | CodeAction)[] | undefined {
  return listings.get(target.handle.client)?.get(listingKey(target));
}

/** The server's actions at the target, as it sent them (an edit, a command, or one to resolve). */
export async function codeActionList(target: Target, signal?: AbortSignal): Promise<(Command | CodeAction)[]> {
  const actions = await askCodeActions(target, signal);
  let kept = listings.get(target.handle.client);
  if (!kept) listings.set(target.handle.client, (kept = new Map()));
  kept.delete(listingKey(target));
  kept.set(listingKey(target), actions);
  if (kept.size > LISTINGS_KEPT) kept.delete(kept.keys().next().value!);
  return actions;
}

async function askCodeActions(target: Target, signal?: AbortSignal): Promise<(Command | CodeAction)[]> {
  const { client } = target.handle;
  const range = { start: target.position, end: { line: target.position.line, character: target.position.character + target.length } };
  // Quick fixes are offered for the diagnostics passed in: on a file just opened the cache is empty,
  // and the first call listed none ("Add import" came only on a later one). Wait for this version's.
  const collected = await collectDiagnostics(client, target.document, signal);
  const current = collected.status === "fresh" ? collected.diagnostics : (client.published.get(target.document.uri)?.diagnostics ?? []);
  const onLine = current.filter(
    (d) => d.range.start.line <= target.position.line && d.range.end.line >= target.position.line,
  );
  const ask = (only?: string[]) =>
    client.query<(Command | CodeAction)[] | null>(
      "textDocument/codeAction",
      { textDocument: { uri: target.document.uri }, range, context: { diagnostics: onLine, triggerKind: 1, ...(only ? { only } : {}) } },
      signal,
    );
  const actions = (await ask()) ?? [];
  // tsserver offers its source actions (organize imports) only to a request that names them: asked
  // for too when the server says it has some, each title once.
  const provider = client.capabilities.codeActionProvider;
  const sourceKinds = (typeof provider === "object" ? (provider.codeActionKinds ?? []) : []).filter((kind) => kind === "source" || kind.startsWith("source."));
  if (sourceKinds.length === 0) return actions;
  const titles = new Set(actions.map((a) => a.title));
  return [...actions, ...((await ask(sourceKinds)) ?? []).filter((a) => !titles.has(a.title))];
}

export async function codeActions(target: Target, signal?: AbortSignal): Promise<CodeActionRow[]> {
  return (await codeActionList(target, signal)).map((a, i) => ({
    number: i + 1,
    title: a.title,
    ...("kind" in a && a.kind ? { kind: a.kind } : {}),
    ...("isPreferred" in a && a.isPreferred ? { preferred: true } : {}),
  }));
}

const OFFERED_ACTIONS = [
  ["definition", "definitionProvider"],
  ["references", "referencesProvider"],
  ["hover", "hoverProvider"],
  ["symbols", "documentSymbolProvider"],
  ["implementation", "implementationProvider"],
  ["type_definition", "typeDefinitionProvider"],
  ["calls", "callHierarchyProvider"],
] as const;

/** A server that does not offer the action (sql-language-server has no hover) is said to, with what it does offer. */
export function requireProvider(client: LanguageServerClient, provider: keyof LanguageServerClient["capabilities"], action: string): void {
  const unanswered = client.spec.unanswered?.[action as keyof NonNullable<typeof client.spec.unanswered>];
  if (unanswered) throw new ToolFailure(`The ${client.spec.id} server does not answer ${action.replace("_", " ")}: ${unanswered}.`, { code: "unsupported" });
  if (client.capabilities[provider]) return;
  const offered = OFFERED_ACTIONS.filter(([, p]) => client.capabilities[p]).map(([name]) => name);
  const instead = offered.length ? `It offers ${offered.join(", ")}.` : "It offers none of definition, references, hover or symbols; diagnostics still work.";
  throw new ToolFailure(`The ${client.spec.id} server does not offer ${action.replace("_", " ")}. ${instead}`, { code: "unsupported" });
}

/** How long to wait before asking a second time for references that came back empty. */
const EMPTY_REFERENCES_RETRY_MS = 1_000;

/**
 * References are asked with the declaration included, and the place asked about is a use of the
 * name itself: an empty answer for a symbol the server knows (refuseWhereNoSymbol passed) leaves
 * out at least that. rust-analyzer answered so once, after it had answered a definition and while
 * it reported no progress (CI). Asked again after a pause; still empty, it is "try again", never
 * "No references found".
 */
export async function referencesOnceMore(target: Target, signal?: AbortSignal): Promise<PlaceRow[]> {
  await new Promise((resolve) => setTimeout(resolve, EMPTY_REFERENCES_RETRY_MS));
  signal?.throwIfAborted();
  const rows = await navigate(target, "references", signal);
  if (rows.length > 0) return rows;
  const { id } = target.handle.client.spec;
  throw new ToolFailure(
    `The ${id} server answered no references to ${target.label}, twice, not even this use of it, though it knows the symbol: it is most likely still indexing the project without reporting it. Try again in a few seconds; if the answer stays empty, the server does not count this place as a use of the name.`,
    { code: "not_ready" },
  );
}

/** An empty answer from a server still indexing is "try again", never "nothing there". */
export function refuseWhileIndexing(client: LanguageServerClient): void {
  const busy = [...client.activeProgress.values()];
  if (busy.length === 0) return;
  throw new ToolFailure(`The ${client.spec.id} server is still indexing (${busy.slice(0, 3).join("; ")}), so its empty answer means nothing yet. Try again in a few seconds.`, { code: "not_ready" });
}

function hoverText(contents: Hover["contents"]): string {
  const parts = Array.isArray(contents) ? contents : [contents];
  return parts
    .map((p) => (typeof p === "string" ? p : "kind" in p ? (p as MarkupContent).value : `\`\`\`${p.language}\n${p.value}\n\`\`\``))
    .filter(Boolean)
    .join("\n\n")
    .replace(INLINE_IMAGE, "")
    .trim();
}

/** An image inlined as a data: URI (the CSS server's browser-support badge): kilobytes of base64 that tell a model nothing. */
const INLINE_IMAGE = /!\[[^\]]*\]\(data:[^)]*\)\s*/g;

