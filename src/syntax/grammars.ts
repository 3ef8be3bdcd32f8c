// The grammar catalog: which languages are embedded, which file extensions map to them, and
// loading a grammar once per run. Where the bytes come from is injected by the runtime layer.
import { extname } from "node:path";
import { Language, Parser } from "web-tree-sitter";
import manifest from "../../grammars/manifest.json" with { type: "json" };
import type { GrammarSource } from "../host/runtime.ts";

export interface GrammarInfo {
  id: string;
  file: string;
  extensions: string[];
  package: string;
  version: string;
  sha256: string;
}

export const GRAMMARS: readonly GrammarInfo[] = manifest.grammars;
export const GRAMMAR_IDS: readonly string[] = GRAMMARS.map((g) => g.id);

const byExtension = new Map(GRAMMARS.flatMap((g) => g.extensions.map((ext) => [ext, g.id] as const)));

/** The grammar id for a file name, by extension; undefined when no embedded grammar fits. */
export function grammarForPath(path: string): string | undefined {
  return byExtension.get(extname(path).toLowerCase());
}

export function isGrammarId(id: string): boolean {
  return GRAMMAR_IDS.includes(id);
}

/** Loads tree-sitter and grammars on first use; concurrent first uses share one promise. */
export class GrammarLoader {
  private runtime: Promise<void> | undefined;
  private readonly languages = new Map<string, Promise<Language>>();

  constructor(private readonly source: GrammarSource) {}

  language(id: string): Promise<Language> {
    if (!isGrammarId(id)) {
      return Promise.reject(new Error(`No grammar named ${JSON.stringify(id)}; embedded grammars: ${GRAMMAR_IDS.join(", ")}.`));
    }
    let loading = this.languages.get(id);
    if (!loading) {
      loading = this.loadRuntime().then(async () => Language.load(await this.source.grammarBytes(id)));
      // A failure is kept: the bytes are embedded, so a retry would fail the same way.
      this.languages.set(id, loading);
    }
    return loading;
  }

  async parser(id: string): Promise<Parser> {
    const language = await this.language(id);
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  }

  /** Compiles the tree-sitter runtime (once); grammars load after it. */
  loadRuntime(): Promise<void> {
    this.runtime ??= this.source.runtimeWasmBytes().then((wasmBinary) => Parser.init({ wasmBinary }));
    return this.runtime;
  }
}
