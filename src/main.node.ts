// `sidecar serve` under Node (bundled by `bun build --target=node`): the same app, Node's HTTP server.
// Usage: node sidecar.node.mjs serve [flags]   (SIDECAR_ROOT = the checkout holding grammars/)
import { parseCommandLine } from "./cli/args.ts";
import { reportFailure } from "./cli/failure.ts";
import { serveCommand } from "./cli/serve.ts";
import { nodePrimitives } from "./runtime/node.ts";

const root = process.env.SIDECAR_ROOT ?? process.cwd();

async function main(): Promise<number> {
  const { command, flags } = parseCommandLine(process.argv.slice(2));
  if (command !== "serve") {
    process.stderr.write("sidecar (node): only `serve` is available under Node; use the compiled binary for the rest.\n");
    return 2;
  }
  return serveCommand(flags, nodePrimitives(root, process.argv[1] ?? ""));
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => process.exit(reportFailure(error)),
);
