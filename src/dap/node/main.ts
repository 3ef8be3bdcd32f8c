// The Node.js debug adapter's process (`sidecar __dap-node`): one DAP client on a loopback port, one program.
import { createServer } from "node:net";
import { NodeAdapter, type AdapterTools } from "./adapter.ts";
import { DapServerConnection } from "./dap-server.ts";

/** The hidden command the sidecar runs itself with to start this adapter. */
export const NODE_ADAPTER_COMMAND = "__dap-node";

/**
 * `--node PATH [--tsx-loader PATH] --listen 127.0.0.1:0`. Prints where it listens on stdout, as
 * `dlv dap` does ("DAP server listening at: H:P"); after that line stdout is the program's alone.
 */
export async function runNodeDebugAdapter(argv: readonly string[]): Promise<number> {
  const option = (name: string) => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const node = option("--node");
  const listen = option("--listen") ?? "127.0.0.1:0";
  if (!node) {
    process.stderr.write("usage: sidecar __dap-node --node PATH [--tsx-loader PATH] [--listen 127.0.0.1:0]\n");
    return 2;
  }
  const tsxLoader = option("--tsx-loader");
  const tools: AdapterTools = { node, ...(tsxLoader ? { tsxLoader } : {}) };
  const [host, port] = [listen.slice(0, listen.lastIndexOf(":")), Number(listen.slice(listen.lastIndexOf(":") + 1))];
  return new Promise((resolve) => {
    const server = createServer((socket) => {
      server.close(); // one client, one program
      let adapter: NodeAdapter | undefined;
      const connection = new DapServerConnection(socket, (command, args) => adapter!.handle(command, args as Record<string, unknown>));
      adapter = new NodeAdapter(connection, tools);
      connection.onClose(() => {
        adapter!.shutdown();
        resolve(0);
      });
    });
    server.listen(port, host, () => {
      const address = server.address();
      if (address && typeof address === "object") process.stdout.write(`DAP server listening at: ${host}:${address.port}\n`);
    });
  });
}
