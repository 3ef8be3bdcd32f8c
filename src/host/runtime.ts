// The few things core code needs from the runtime (Bun, Node, Deno), injected at start-up by the
// thin runtime-specific layer in `src/runtime/`.

type FetchHandler = (request: Request) => Response | Promise<Response>;

export interface Listening {
  /** The port actually bound (meaningful when 0 was asked for). */
  port: number;
  close(): Promise<void>;
}

/** Reads the embedded WASM files; Bun's compiled binary and a source checkout answer differently. */
export interface GrammarSource {
  grammarBytes(id: string): Promise<Uint8Array>;
  runtimeWasmBytes(): Promise<Uint8Array>;
}

export interface RuntimePrimitives {
  name: "bun" | "node" | "deno";
  /** Serves `fetch` at host:port. */
  listen(fetch: FetchHandler, host: string, port: number): Promise<Listening>;
  grammars: GrammarSource;
  /** Starts a parse worker thread; absent where the runtime has none (parsing stays in-thread). */
  spawnParseWorker?: () => Worker;
  /** The argv that starts this same sidecar again (a compiled binary, or the runtime plus src/main.ts). */
  selfCommand: readonly string[];
}
