// The sidecar binary's entry point (Bun): parse the command line and dispatch. It imports only what
// every command needs: the binary is built in chunks (compile.ts), and a command loads its own.
import { parseCommandLine } from "./cli/args.ts";
import { printHelp } from "./cli/help.ts";
import { startOverWithEngineOptions } from "./platform/engine-options.ts";
import { COMMIT, VERSION } from "./version.ts";

async function main(argv: readonly string[]): Promise<number> {
  // Hidden: the debug tool's Node.js adapter (NODE_ADAPTER_COMMAND), started by the sidecar itself with
  // flags of its own (--node, --listen), which the command table's parser does not know; so it is not in that table.
  if (argv[0] === "__dap-node") return (await import("./dap/node/main.ts")).runNodeDebugAdapter(argv.slice(1));
  const { command, flags, rest } = parseCommandLine(argv);
  if (flags.version) return printVersion();
  if (flags.help || command === undefined || command === "help") return printHelp(command, flags, rest);
  const bunPrimitives = async () => (await import("./runtime/bun.ts")).bunPrimitives;
  switch (command) {
    // Commands load lazily: a kernel or `--version` should not pay for the HTTP server and the MCP SDK.
    case "serve":
      startOverWithEngineOptions(); // returns only once the engine has them, or cannot
      return (await import("./cli/serve.ts")).serveCommand(flags, await bunPrimitives());
    case "tools":
      return (await import("./cli/tools.ts")).toolsCommand(flags, await bunPrimitives());
    case "doctor":
      return (await import("./cli/doctor.ts")).doctorCommand(flags, await bunPrimitives());
    case "check-config":
      return (await import("./cli/check-config.ts")).checkConfigCommand(rest[0]!, flags, await bunPrimitives());
    case "servers":
      return (await import("./cli/servers.ts")).serversCommand(rest, flags);
    case "console":
      return (await import("./cli/console.ts")).consoleCommand(flags);
    case "completion":
      return (await import("./cli/completion.ts")).completionCommand(rest);
    case "version":
      return printVersion();
    case "__kernel-js": // hidden: the eval tool's JavaScript kernel (JS_KERNEL_COMMAND), started by the sidecar itself
      return (await import("./kernel/js-kernel.bun.ts")).runJavaScriptKernel();
    default:
      throw new Error(`The command ${JSON.stringify(command)} is in the command table but not dispatched here.`);
  }
}

function printVersion(): number {
  process.stdout.write(`sidecar ${VERSION} (${COMMIT})\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (error: unknown) => process.exit((await import("./cli/failure.ts")).reportFailure(error)),
);
