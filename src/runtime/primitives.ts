// The few things core code needs from the runtime (Bun, Node, Deno), injected at start-up.
import type { GrammarSource } from "../syntax/grammars.ts";

export type FetchHandler = (request: Request) => Response | Promise<Response>;

export interface Listening {
  /** The port actually bound (meaningful when 0 was asked for). */
  port: number;
  close(): Promise<void>;
}

export interface RuntimePrimitives {
  name: "bun" | "node" | "deno";
  listen(fetch: FetchHandler, host: string, port: number): Promise<Listening>;
  grammars: GrammarSource;
  /** Starts a parse worker thread; absent where the runtime has none (parsing stays in-thread). */
  spawnParseWorker?: () => Worker;
  /** The argv that starts this same sidecar again (a compiled binary, or the runtime plus src/main.ts). */
  selfCommand: readonly string[];
}
