// `sidecar servers list`: an install named typescript@5.3.0 is the language server's version; the TypeScript it brings is shown beside it.
import { expect, test } from "bun:test";
import { BUILTIN_SERVERS } from "../../src/lsp/catalog.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { runCli } from "./run-cli.ts";

test("list shows under each install the packages it brings at their versions (typescript: the server and the TypeScript it runs)", async () => {
  await using cache = await tempDir("sidecar-cache-");
  const { code, stdout } = runCli(["servers", "list", "--cache-dir", cache.path]);
  expect(code).toBe(0);
  const typescript = BUILTIN_SERVERS.find((spec) => spec.id === "typescript")!.npm!.packages;
  const server = typescript["typescript-language-server"]!;
  const compiler = typescript.typescript!;
  expect(server).not.toBe(compiler); // what made the install's name misleading on its own
  expect(stdout).toMatch(new RegExp(`  typescript@${server.replaceAll(".", "\\.")}\\s+typescript\\s+not installed \\(installs on first use\\)\\n      packages: typescript-language-server ${server}, typescript ${compiler}\\n`));
  // The install's name is the server id: python@… is pyright.
  const pyright = BUILTIN_SERVERS.find((spec) => spec.id === "python")!.npm!.packages.pyright!;
  expect(stdout).toMatch(new RegExp(`  python@${pyright.replaceAll(".", "\\.")}\\s+python\\s+not installed \\(installs on first use\\)\\n      packages: pyright ${pyright}\\n`));
});
