// `sidecar serve` under Deno, from source: deno run -A src/main.deno.ts serve [flags]
import { fileURLToPath } from "node:url";
import { parseCommandLine } from "./cli/args.ts";
import { reportFailure } from "./cli/failure.ts";
import { serveCommand } from "./cli/serve.ts";
import { denoPrimitives } from "./runtime/deno.ts";

const entry = fileURLToPath(import.meta.url);
const root = fileURLToPath(new URL("..", import.meta.url));

async function main(): Promise<number> {
  const { command, flags } = parseCommandLine(process.argv.slice(2));
  if (command !== "serve") {
    process.stderr.write("sidecar (deno): only `serve` is available under Deno; use the compiled binary for the rest.\n");
    return 2;
  }
  return serveCommand(flags, denoPrimitives(root, entry));
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => process.exit(reportFailure(error)),
);
