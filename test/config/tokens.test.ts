// Stable bearer tokens without a config file: --token-file [SURFACE=]FILE and SIDECAR_TOKEN[_SURFACE].
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectClient, spawnSidecar } from "../../build/spawn-sidecar.ts";
import { ConfigError } from "../../src/config/load.ts";
import { givenTokens, tokenVariable } from "../../src/config/tokens.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");
const SURFACES = ["default", "plan", "explore", "code-review"];
const TOKEN = "default-token-0123456789";

function tokenFile(dir: string, name: string, text: string, mode = 0o600): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

describe("tokens from the environment and token files", () => {
  test("SIDECAR_TOKEN is the default surface's; SIDECAR_TOKEN_<NAME> another's, - spelled _", () => {
    expect(tokenVariable("code-review")).toBe("SIDECAR_TOKEN_CODE_REVIEW");
    const tokens = givenTokens(SURFACES, { SIDECAR_TOKEN: TOKEN, SIDECAR_TOKEN_CODE_REVIEW: "review-token-0123456789", HOME: "/root" });
    expect(tokens).toEqual({ default: TOKEN, "code-review": "review-token-0123456789" });
  });

  test("a token file wins over the variable; its trailing newline is not part of the token", async () => {
    await using dir = await tempDir();
    const file = tokenFile(dir.path, "plan.token", "plan-token-from-a-file\n");
    expect(givenTokens(SURFACES, { SIDECAR_TOKEN_PLAN: "plan-token-from-env-000" }, [`plan=${file}`])).toEqual({ plan: "plan-token-from-a-file" });
  });

  test.each([
    [{ SIDECAR_TOKEN_REVIEWER: "reviewer-token-0123456" }, [], "SIDECAR_TOKEN_REVIEWER names no surface of this run; its surfaces are default, plan, explore, code-review"],
    [{ SIDECAR_TOKEN: "short" }, [], "SIDECAR_TOKEN: expected a token of at least 16 characters."],
    [{ SIDECAR_TOKEN: "has a space in it 0123" }, [], "SIDECAR_TOKEN: expected a token of letters, digits and"],
    [{}, ["reviewer=/dev/null"], "--token-file reviewer=/dev/null: this run has no surface reviewer"],
    [{}, ["/nonexistent/token"], "Cannot read the token file /nonexistent/token"],
  ])("%j %j is refused: %s", (env, files, expected) => {
    expect(() => givenTokens(SURFACES, env, files)).toThrow(ConfigError);
    expect(() => givenTokens(SURFACES, env, files)).toThrow(expected);
  });

  // Windows has no Unix permission bits to check (the sidecar does not look there).
  test.skipIf(process.platform === "win32")("a token file other users can read is used, with a warning", async () => {
    await using dir = await tempDir();
    const file = tokenFile(dir.path, "open.token", TOKEN, 0o644);
    const warnings: string[] = [];
    expect(givenTokens(SURFACES, {}, [file], (line) => warnings.push(line))).toEqual({ default: TOKEN });
    expect(warnings).toEqual([`sidecar: warning: the token file ${file} is readable by other users; chmod 600 it.`]);
  });
});

describe("serve with fixed tokens", () => {
  test("the environment and a token file fix the tokens a client connects with, across restarts", async () => {
    await using dir = await tempDir();
    const planFile = tokenFile(dir.path, "plan.token", "plan-token-from-a-file\n");
    const env = { ...process.env, SIDECAR_TOKEN: TOKEN };
    for (let run = 0; run < 2; run++) {
      await using sidecar = await spawnSidecar([process.execPath, MAIN, "serve", "--workdir", dir.path, "--token-file", `plan=${planFile}`], { env });
      expect(sidecar.ready.surfaces.default).toBe(TOKEN);
      expect(sidecar.ready.surfaces.plan).toBe("plan-token-from-a-file");
      expect(sidecar.ready.surfaces.explore).toMatch(/^[A-Za-z0-9_-]{43}$/); // still minted
      const plan = await connectClient(sidecar.ready.url, "plan-token-from-a-file", "tokens-test");
      expect((await plan.listTools()).tools.map((t) => t.name)).not.toContain("eval"); // plan's view: read only
      await plan.close();
      if (run > 0) continue;
      const main = await sidecar.connect();
      // The JavaScript kernel is the sidecar itself re-run: no interpreter needed for this check.
      const code = "JSON.stringify(Object.keys(process.env).filter((k) => k.startsWith('SIDECAR_TOKEN')))";
      const cell = await main.callTool({ name: "eval", arguments: { code, language: "javascript", description: "list token variables the kernel can see" } });
      expect(JSON.stringify(cell.content)).toContain('\\"[]\\"'); // the kernel did not inherit the token
    }
  }, 90_000);

  test("a bad token stops serve before it listens, naming where the token came from", () => {
    const result = spawnSync(process.execPath, [MAIN, "serve", "--workdir", "/tmp"], { env: { ...process.env, SIDECAR_TOKEN_PLAN: "short" }, encoding: "utf8", timeout: 30_000 });
    expect(result.stderr.trim()).toBe("sidecar: SIDECAR_TOKEN_PLAN: expected a token of at least 16 characters.");
    expect(result.status).toBe(2);
  });
});
