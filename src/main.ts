// The sidecar binary's entry point (Bun): parse the command line and dispatch.
import { ConfigError } from "./config/load.ts";
import { parseCommandLine, UsageError } from "./cli/args.ts";
import { doctorCommand } from "./cli/doctor.ts";
import { HELP } from "./cli/help.ts";
import { JS_KERNEL_COMMAND } from "./kernel/launch.ts";
import { serveCommand } from "./cli/serve.ts";
import { toolsCommand } from "./cli/tools.ts";
import { bunPrimitives } from "./runtime/bun.ts";
import { COMMIT, VERSION } from "./version.ts";

async function main(argv: readonly string[]): Promise<number> {
  const { command, flags } = parseCommandLine(argv);
  if (flags.version) {
    process.stdout.write(`sidecar ${VERSION} (${COMMIT})\n`);
    return 0;
  }
  if (flags.help || command === undefined || command === "help") {
    process.stdout.write(HELP);
    return command === undefined && !flags.help ? 2 : 0;
  }
  switch (command) {
    case "serve":
      return serveCommand(flags, bunPrimitives);
    case "tools":
      return toolsCommand(flags, bunPrimitives);
    case "doctor":
      return doctorCommand(flags, bunPrimitives);
    case JS_KERNEL_COMMAND: // hidden: the eval tool's JavaScript kernel, started by the sidecar itself
      return (await import("./kernel/js-kernel.bun.ts")).runJavaScriptKernel();
    default:
      throw new UsageError(`Unknown command ${JSON.stringify(command)}. Commands: serve, tools, doctor. Run \`sidecar --help\`.`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ConfigError) {
      process.stderr.write(`sidecar: ${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`sidecar: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
