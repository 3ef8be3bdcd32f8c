// Runtime primitives under Deno: Deno.serve, grammars read from the checkout.
import { checkoutGrammarSource } from "./grammar-source.fs.ts";
import type { RuntimePrimitives } from "../host/runtime.ts";

declare const Deno: {
  serve(
    options: { hostname: string; port: number; onListen?: (addr: { port: number }) => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): { shutdown(): Promise<void> };
  execPath(): string;
};

export function denoPrimitives(checkoutRoot: string, entryScript: string): RuntimePrimitives {
  return {
    name: "deno",
    listen(fetch, host, port) {
      return new Promise((resolve) => {
        const server = Deno.serve({ hostname: host, port, onListen: (addr) => resolve({ port: addr.port, close: () => server.shutdown() }) }, fetch);
      });
    },
    grammars: checkoutGrammarSource(checkoutRoot),
    selfCommand: [Deno.execPath(), "run", "-A", entryScript],
  };
}
