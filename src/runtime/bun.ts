// Runtime primitives under Bun (source checkout and the compiled binary alike).
import { isEmbeddedPath } from "../platform/embedded-paths.ts";
import { join } from "node:path";
import type { RuntimePrimitives } from "../host/runtime.ts";
import { bunGrammarSource } from "./grammar-source.bun.ts";
import { spawnParseWorker } from "./parse-worker.bun.ts";

/** Inside `bun build --compile` output, the entry script lives in Bun's embedded file system. */
const compiled = isEmbeddedPath(Bun.main);

export const bunPrimitives: RuntimePrimitives = {
  name: "bun",
  async listen(fetch, host, port) {
    // idleTimeout 0: SSE streams and long tool calls (ask_user, vibe_wait) must not be cut at 10 s.
    const server = Bun.serve({
      fetch,
      hostname: host,
      port,
      idleTimeout: 0,
      // Bun turns SO_REUSEPORT on for a production server: a second sidecar on the same port then
      // started too, and the kernel split connections between them. A port in use must fail.
      reusePort: false,
      // Never Bun's development error page: it shows the working directory and source lines.
      development: false,
      error: () => Response.json({ jsonrpc: "2.0", error: { code: -32603, message: "Internal error in the sidecar; the request may be retried." }, id: null }, { status: 500 }),
    });
    return { port: server.port ?? port, close: () => server.stop(true) };
  },
  grammars: bunGrammarSource,
  spawnParseWorker,
  // From source, name main.ts itself: under `bun test` (or an importing script) Bun.main is another file.
  selfCommand: compiled ? [process.execPath] : [process.execPath, join(import.meta.dir, "..", "main.ts")],
};
