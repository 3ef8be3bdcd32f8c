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

/**
 * Languages a search covers only when it names them (`language`, or one such file as `path`). A
 * markdown pattern like `## $T` parses as markdown, and so does nearly any text: a search of every
 * language would parse every .md file of a checkout for patterns meant for code, and add a markdown
 * note to most answers. Such files are counted and named in a note instead.
 */
export const SEARCHED_WHEN_NAMED: ReadonlySet<string> = new Set(["markdown"]);

/** The grammar id for a file name, by extension; undefined when no embedded grammar fits. */
export function grammarForPath(path: string): string | undefined {
  return byExtension.get(extname(path).toLowerCase());
}

export function isGrammarId(id: string): boolean {
  return GRAMMAR_IDS.includes(id);
}

/**
 * The tree-sitter runtime and grammars as compiled WebAssembly modules. A module can be posted to
 * a worker, and every thread instantiating the same module shares its machine code: the parse
 * workers of a search optimise a grammar's hot functions once between them, not once each (the
 * optimising compiler's thread spent about a second per worker on a cold Python search).
 */
export interface CompiledGrammars {
  grammarModule(id: string): Promise<WebAssembly.Module>;
  runtimeModule(): Promise<WebAssembly.Module>;
}

/** Compiles each grammar (and the runtime) the first time it is asked for, and keeps the module. */
export function compiledGrammars(source: GrammarSource): CompiledGrammars {
  const modules = new Map<string, Promise<WebAssembly.Module>>();
  const compile = (key: string, bytes: () => Promise<Uint8Array>) => {
    let module = modules.get(key);
    if (!module) {
      module = bytes().then((b) => WebAssembly.compile(b));
      modules.set(key, module);
    }
    return module;
  };
  return {
    grammarModule: (id) => compile(id, () => source.grammarBytes(id)),
    // Not a grammar id (those are names like "python"), so the two never meet in the map.
    runtimeModule: () => compile("\0runtime", () => source.runtimeWasmBytes()),
  };
}

/** Loads tree-sitter and grammars on first use; concurrent first uses share one promise. */
export class GrammarLoader {
  private runtime: Promise<void> | undefined;
  private readonly languages = new Map<string, Promise<Language>>();
  private readonly modules: CompiledGrammars;

  constructor(source: GrammarSource | CompiledGrammars) {
    this.modules = "grammarBytes" in source ? compiledGrammars(source) : source;
  }

  language(id: string): Promise<Language> {
    if (!isGrammarId(id)) {
      return Promise.reject(new Error(`No grammar named ${JSON.stringify(id)}; embedded grammars: ${GRAMMAR_IDS.join(", ")}.`));
    }
    let loading = this.languages.get(id);
    if (!loading) {
      loading = this.loadRuntime().then(async () => Language.loadSync(await this.modules.grammarModule(id)));
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

  /** Instantiates the tree-sitter runtime (once); grammars load after it. */
  loadRuntime(): Promise<void> {
    this.runtime ??= this.modules.runtimeModule().then((module) =>
      Parser.init({
        // Emscripten's hook for a module compiled elsewhere: it hands over the imports and wants the instance back.
        instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
          const instance = new WebAssembly.Instance(module, imports);
          done(instance, module);
          return instance.exports;
        },
      }),
    );
    return this.runtime;
  }
}
