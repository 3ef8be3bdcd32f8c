// The few things core code needs from the runtime (Bun, Node, Deno), injected at start-up.
import type { ListFrontFeed } from "../http/list-front.ts";
import type { GrammarSource } from "../syntax/grammars.ts";

export type FetchHandler = (request: Request) => Response | Promise<Response>;

export interface Listening {
  /** The port actually bound (meaningful when 0 was asked for). */
  port: number;
  close(): Promise<void>;
  /** Has a front thread, where there is one, collect its garbage (the run is idle; deep: long idle). */
  collectGarbage?(deep: boolean): void;
}

export interface RuntimePrimitives {
  name: "bun" | "node" | "deno";
  /**
   * Serves `fetch` at host:port. A runtime with threads to spare may put a front thread on the port
   * that answers plain tools/list from `front` and hands everything else to `fetch`.
   */
  listen(fetch: FetchHandler, host: string, port: number, front?: ListFrontFeed): Promise<Listening>;
  /** Starts early what listen will need, to get ready while the rest of start-up runs (Bun: the front thread). */
  prepareToListen?(): void;
  grammars: GrammarSource;
  /** Starts a parse worker thread; absent where the runtime has none (parsing stays in-thread). */
  spawnParseWorker?: () => Worker;
  /** The argv that starts this same sidecar again (a compiled binary, or the runtime plus src/main.ts). */
  selfCommand: readonly string[];
}
