// A run config merges over the embedded defaults: a config that sets only `listen` still serves every
// default tool, `false` leaves a resource out, and a run left with no tool says so on stderr.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSidecar } from "../../build/spawn-sidecar.ts";
import { withEmbeddedDefaults } from "../../src/config/defaults.ts";
import { ConfigError, parseConfig, settle } from "../../src/config/load.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");
const DEFAULT_TOOLS = ["ask_user", "ast_edit", "ast_grep", "code_action", "debug", "eval", "lsp", "lsp_rename", "resolve", "symbol_edit"];

function effective(json: unknown) {
  return settle(withEmbeddedDefaults(parseConfig(json)), {}, "/");
}

describe("resources merge over the embedded defaults", () => {
  test("a config without resources connects every default, conversation and question space local", () => {
    const settings = effective({ listen: "127.0.0.1:7777" });
    expect(Object.keys(settings.resources).sort()).toEqual(["debugAdapters", "kernels", "languageServers", "parser", "questions"]);
    expect(settings.resources.questions).toEqual({ space: "local" });
    expect(settings.conversation).toBe("local");
    expect(settings.listen).toEqual({ host: "127.0.0.1", port: 7777 });
  });

  test("false leaves one out; settings merge over the default's; resources without a default are added", () => {
    const settings = effective({
      conversation: "c-9",
      resources: { kernels: false, parser: { maxFileBytes: 1000 }, questions: { timeoutSeconds: 60 }, bridge: { url: "http://127.0.0.1:9/b" } },
    });
    expect(settings.resources.kernels).toBeUndefined();
    expect(settings.resources.parser).toEqual({ maxFileBytes: 1000 });
    expect(settings.resources.questions).toEqual({ space: "local", timeoutSeconds: 60 });
    expect(settings.resources.bridge).toEqual({ url: "http://127.0.0.1:9/b" });
    expect(settings.conversation).toBe("c-9");
  });

  test("a harness's own question port gets no default space: its spaces are the harness's to name", () => {
    expect(effective({ resources: { questions: { port: "http://127.0.0.1:9/q" } } }).resources.questions).toEqual({ port: "http://127.0.0.1:9/q" });
    expect(effective({ resources: { questions: { port: "http://127.0.0.1:9/q", space: "s" } } }).resources.questions?.space).toBe("s");
  });

  test("without the merge (a run built in-process) a resource set to false is simply absent", () => {
    expect(settle(parseConfig({ resources: { parser: {}, kernels: false } }), {}, "/").resources).toEqual({ parser: {} });
  });

  test.each([
    [{ resources: { kernels: true } }, "resources.kernels: expected its settings as an object ({} takes the defaults), or false to leave it out"],
    [{ resources: { parser: [] } }, "resources.parser: expected its settings as an object ({} takes the defaults), or false to leave it out"],
    [{ resources: { parser: { maxFileBytes: "big" } } }, "resources.parser.maxFileBytes: expected a byte count"],
    [{ resources: { kernels: { pyhton: "python3" } } }, "resources.kernels.pyhton: unknown key"],
    [{ $schema: 7 }, "$schema: expected the JSON Schema's URL or path as a string"],
  ])("%j is refused: %s", (json, expected) => {
    let problems: string[] = [];
    try {
      parseConfig(json);
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems.join("\n")).toContain(expected);
  });

  test("a top-level $schema key is accepted and changes nothing", () => {
    expect(effective({ $schema: "./run-config.schema.json" }).resources).toEqual(effective({}).resources);
  });
});

describe("serve with a config file", () => {
  test("{ listen } alone serves every default tool to an MCP client", async () => {
    await using dir = await tempDir();
    const config = join(dir.path, "run.json");
    writeFileSync(config, JSON.stringify({ listen: "127.0.0.1:0" }));
    await using sidecar = await spawnSidecar([process.execPath, MAIN, "serve", "--config", config, "--workdir", dir.path]);
    const client = await sidecar.connect();
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(DEFAULT_TOOLS);
    expect(sidecar.stderr()).not.toContain("serves no tool");
  }, 60_000);

  test("a config that leaves every resource out is served, with a warning on stderr", async () => {
    await using dir = await tempDir();
    const config = join(dir.path, "run.json");
    const off = { parser: false, languageServers: false, debugAdapters: false, kernels: false, questions: false };
    writeFileSync(config, JSON.stringify({ resources: off }));
    await using sidecar = await spawnSidecar([process.execPath, MAIN, "serve", "--config", config, "--workdir", dir.path]);
    const client = await sidecar.connect();
    expect((await client.listTools()).tools).toEqual([]);
    expect(sidecar.stderr()).toContain("sidecar: warning: this run serves no tool");
  }, 60_000);
});
