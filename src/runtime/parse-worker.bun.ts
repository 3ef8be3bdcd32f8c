// Starts a parse worker under Bun. A compiled binary bundles the worker as a second entrypoint
// (compile.ts), embedded beside main at <root>/syntax/parse-worker.js; from source it is a sibling file.
import { dirname, join } from "node:path";

const compiled = Bun.main.startsWith("/$bunfs/") || Bun.main.includes("~BUN");

export function spawnParseWorker(): Worker {
  const entry = compiled ? join(dirname(Bun.main), "syntax", "parse-worker.ts") : new URL("../syntax/parse-worker.ts", import.meta.url).href;
  return new Worker(entry);
}
