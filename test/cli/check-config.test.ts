// `sidecar check-config run.json`: every problem named (exit 2), or the effective config on stdout.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseConfig } from "../../src/config/load.ts";
import type { RunConfig } from "../../src/config/schema.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { runCli } from "./run-cli.ts";

async function withConfig(config: unknown, check: (path: string, dir: string) => void | Promise<void>): Promise<void> {
  await using dir = await tempDir();
  const path = join(dir.path, "run.json");
  writeFileSync(path, typeof config === "string" ? config : JSON.stringify(config));
  await check(path, dir.path);
}

describe("check-config", () => {
  test("prints the effective config: defaults merged, workdir resolved, tokens left out; it is itself a valid config", async () => {
    await withConfig({ $schema: "x", listen: "127.0.0.1:7777", surfaces: { plan: { tiers: ["read"], token: "plan-secret-0123456789" } }, resources: { kernels: false } }, (path, dir) => {
      const { code, stdout, stderr } = runCli(["check-config", path, "--workdir", dir]);
      expect(code).toBe(0);
      const effective = JSON.parse(stdout) as Record<string, unknown>;
      expect(effective).toEqual({
        workdir: dir,
        conversation: "local",
        listen: "127.0.0.1:7777",
        surfaces: { default: { tiers: ["read", "write", "exec"] }, plan: { tiers: ["read"] }, explore: { tiers: ["read"] } },
        resources: { parser: {}, languageServers: {}, debugAdapters: {}, questions: { space: "local" } },
      });
      expect(stdout).not.toContain("plan-secret");
      expect(() => parseConfig(effective)).not.toThrow();
      expect(stderr).toContain(`sidecar: ${path} is valid.`);
      expect(stderr).toContain("surface default sees 9 tools: lsp, lsp_rename, ast_grep, ast_edit, resolve, symbol_edit, code_action, debug, ask_user");
      expect(stderr).toContain("surface plan sees 3 tools: lsp, ast_grep, ask_user");
    });
  });

  // serve, tools, doctor and check-config settle the config alike; servers --cache-dir names the same folder.
  test("--cache-dir wins over the config's languageServers.cacheDir; a relative one is refused", async () => {
    await withConfig({ resources: { languageServers: { cacheDir: "/from/config" } } }, (path, dir) => {
      const { code, stdout } = runCli(["check-config", path, "--workdir", dir, "--cache-dir", "/opt/sidecar-servers"]);
      expect(code).toBe(0);
      expect((JSON.parse(stdout) as RunConfig).resources?.languageServers).toEqual({ cacheDir: "/opt/sidecar-servers" });
      const relative = runCli(["serve", "--workdir", dir, "--cache-dir", "servers"]);
      expect({ code: relative.code, stderr: relative.stderr }).toEqual({ code: 2, stderr: 'sidecar: --cache-dir needs an absolute path, got "servers".\n' });
    });
  });

  test("a config that leaves no tool is valid, with a warning", async () => {
    await withConfig({ resources: { parser: false, languageServers: false, debugAdapters: false, kernels: false, questions: false } }, (path, dir) => {
      const { code, stderr } = runCli(["check-config", path, "--workdir", dir]);
      expect(code).toBe(0);
      expect(stderr).toContain("sidecar: warning: this run serves no tool");
    });
  });

  test("every problem is named with its path, and the exit code is 2", async () => {
    await withConfig({ listen: "everywhere", resources: { kernels: true, parser: { maxFileBytez: 1 } } }, (path) => {
      const { code, stdout, stderr } = runCli(["check-config", path]);
      expect(code).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toBe(
        [
          `sidecar: The run config ${path} is invalid:`,
          "  listen: expected a listen address like 127.0.0.1:0",
          "  resources.parser.maxFileBytez: unknown key (check its spelling; unknown keys are not ignored)",
          "  resources.kernels: expected its settings as an object ({} takes the defaults), or false to leave it out",
          "",
        ].join("\n"),
      );
    });
  });

  test.each([
    ["{ not json", "is not valid JSON"],
    [JSON.stringify({ workdir: "/nonexistent/checkout" }), "workdir: /nonexistent/checkout does not exist"],
  ])("%s is refused: %s", async (text, expected) => {
    await withConfig(text, (path) => {
      const { code, stderr } = runCli(["check-config", path]);
      expect(code).toBe(2);
      expect(stderr).toContain(expected);
    });
  });

  // JavaScriptCore's own message ("Property name must be a string literal") says neither where nor what to do.
  test.each([
    ['{\n  "listen": "127.0.0.1:0",\n', "line 3, column 1: expected a string in double quotes, found the end of the file", "The file ends too early (cut short?): complete it"],
    ['{\n  "resources": {\n    "kernels": false\n', "line 4, column 1: expected ',' or '}', found the end of the file", "The file ends too early"],
    ['{\n  "listen": "127.0.0.1:0",\n}\n', "line 3, column 1: expected another key after ',' (JSON allows no trailing comma), found \"}\"", "Fix it there"],
  ])("broken JSON %j is placed: %s", async (text, place, advice) => {
    await withConfig(text, (path) => {
      const { code, stderr } = runCli(["check-config", path]);
      expect(code).toBe(2);
      expect(stderr).toContain(`The run config ${path} is not valid JSON: ${place} (JSON Parse error:`);
      expect(stderr).toContain(`${advice}`);
      expect(stderr).toContain(`then run \`sidecar check-config ${path}\`.`);
    });
  });
});
