// Runtime primitives under Node: serving through @hono/node-server, grammars read from the checkout.
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { checkoutGrammarSource } from "./grammar-source.fs.ts";
import type { RuntimePrimitives } from "../host/runtime.ts";

export function nodePrimitives(checkoutRoot: string, entryScript: string): RuntimePrimitives {
  return {
    name: "node",
    listen(fetch, host, port) {
      return new Promise((resolve, reject) => {
        const server = serve({ fetch, hostname: host, port }, (info: AddressInfo) => {
          resolve({
            port: info.port,
            close: () => new Promise<void>((done) => server.close(() => done())),
          });
        });
        // A port in use and the like: start-up reports it (run/start.ts) instead of an uncaught event.
        server.once("error", reject);
      });
    },
    grammars: checkoutGrammarSource(checkoutRoot),
    selfCommand: [process.execPath, entryScript],
  };
}
