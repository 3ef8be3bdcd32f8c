// docs/clients.md: the SDK snippet runs against a sidecar started with the page's own flags, and each
// client's config has the shape that client documents (Claude Code, Cursor, VS Code, Codex, Claude Desktop).
import { describe, expect, test } from "bun:test";
import { execFile } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { spawnSidecar } from "../../build/spawn-sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { MAIN } from "./run-cli.ts";

const root = join(import.meta.dir, "..", "..");
const page = readFileSync(join(root, "docs", "clients.md"), "utf8");
const URL_ON_PAGE = "http://127.0.0.1:7777/mcp";

/** The fenced blocks under a `## heading`, in order. */
function blocks(heading: string, language: string): string[] {
  const section = page.split(/^## /m).find((s) => s.startsWith(`${heading}\n`));
  if (!section) throw new Error(`docs/clients.md has no section ${heading}`);
  return [...section.matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);
}

const json = (heading: string) => JSON.parse(blocks(heading, "json")[0]!) as Record<string, Record<string, Record<string, unknown>>>;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe("docs/clients.md", () => {
  test("the setup serves on 127.0.0.1:7777 with a token file, and every snippet uses that URL", () => {
    const setup = page.match(/```sh\n([\s\S]*?)```/)![1]!;
    expect(setup).toContain("--listen 127.0.0.1:7777 --token-file ~/.config/sidecar/token");
    const urls = [...page.matchAll(/https?:\/\/127\.0\.0\.1:\d+\/mcp/g)].map((m) => m[0]);
    expect(urls.length).toBeGreaterThanOrEqual(7);
    expect(new Set(urls)).toEqual(new Set([URL_ON_PAGE]));
  });

  test("Claude Code: `claude mcp add --transport http` with a header, and .mcp.json with type http", () => {
    expect(blocks("Claude Code", "sh")[0]!.trim()).toBe(`claude mcp add --transport http sidecar ${URL_ON_PAGE} --header "Authorization: Bearer $SIDECAR_TOKEN"`);
    expect(json("Claude Code").mcpServers!.sidecar).toEqual({ type: "http", url: URL_ON_PAGE, headers: { Authorization: "Bearer ${SIDECAR_TOKEN}" } });
  });

  test("Cursor: mcpServers with url and headers, ${env:…} for the token", () => {
    expect(json("Cursor").mcpServers!.sidecar).toEqual({ url: URL_ON_PAGE, headers: { Authorization: "Bearer ${env:SIDECAR_TOKEN}" } });
  });

  test("VS Code: servers (not mcpServers) with type http, the token from a password input", () => {
    const config = JSON.parse(blocks("VS Code", "json")[0]!) as { inputs: Record<string, unknown>[]; servers: Record<string, unknown> };
    expect(config.servers.sidecar).toEqual({ type: "http", url: URL_ON_PAGE, headers: { Authorization: "Bearer ${input:sidecar-token}" } });
    expect(config.inputs).toEqual([expect.objectContaining({ type: "promptString", id: "sidecar-token", password: true })]);
  });

  test("Codex: an [mcp_servers.sidecar] table with url and bearer_token_env_var", () => {
    const config = Bun.TOML.parse(blocks("Codex", "toml")[0]!) as { mcp_servers: Record<string, unknown> };
    expect(config.mcp_servers.sidecar).toEqual({ url: URL_ON_PAGE, bearer_token_env_var: "SIDECAR_TOKEN" });
  });

  test("Claude Desktop: a stdio entry running mcp-remote, the header from env without a space after the colon", () => {
    expect(json("Claude Desktop").mcpServers!.sidecar).toEqual({
      command: "npx",
      args: ["-y", "mcp-remote", URL_ON_PAGE, "--header", "Authorization:${SIDECAR_AUTH}"],
      env: { SIDECAR_AUTH: "Bearer paste-the-token-here" },
    });
  });

  test("the TypeScript SDK snippet, run as written against `serve --listen … --token-file …`, lists the tools", async () => {
    await using dir = await tempDir();
    const token = join(dir.path, "token");
    writeFileSync(token, "0123456789abcdef0123456789abcdef\n", { mode: 0o600 });
    // A free port stands in for 7777, which another sidecar on this machine may hold.
    const port = await freePort();
    await using sidecar = await spawnSidecar([process.execPath, MAIN, "serve", "--workdir", dir.path, "--listen", `127.0.0.1:${port}`, "--token-file", token]);
    const snippet = join(dir.path, "client.ts");
    writeFileSync(snippet, blocks("The MCP TypeScript SDK", "ts")[0]!.replace(URL_ON_PAGE, `http://127.0.0.1:${port}/mcp`));
    symlinkSync(join(root, "node_modules"), join(dir.path, "node_modules"));
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [snippet], { env: { ...process.env, SIDECAR_TOKEN: "0123456789abcdef0123456789abcdef" }, timeout: 60_000 }, (error, out, err) =>
        error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
      ),
    );
    expect(stdout.trim().split(" ").sort()).toEqual(["ask_user", "ast_edit", "ast_grep", "code_action", "debug", "eval", "lsp", "lsp_rename", "resolve", "symbol_edit"]);
    expect(sidecar.ready.url).toBe(`http://127.0.0.1:${port}/mcp`);
  }, 90_000);
});
