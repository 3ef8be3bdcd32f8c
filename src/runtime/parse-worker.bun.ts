// Starts a parse worker under Bun. In a compiled binary the worker is an extra entrypoint of the
// build (compile.ts), reachable by its source-relative path inside Bun's embedded file system.
export function spawnParseWorker(): Worker {
  return new Worker(new URL("../syntax/parse-worker.ts", import.meta.url).href);
}
