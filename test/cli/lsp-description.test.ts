// The `lsp` tool's description names every server and language of the run's catalog: it is built from the
// catalog, so a server added to it (or by a run config) cannot be missing from what the model reads.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BUILTIN_SERVERS } from "../../src/lsp/catalog.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { runCli } from "./run-cli.ts";

function lspDescription(args: string[]): string {
  const { code, stdout, stderr } = runCli(["tools", ...args]);
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  const tools = (JSON.parse(stdout) as { tools: { name: string; description: string }[] }).tools;
  return tools.find((tool) => tool.name === "lsp")!.description;
}

/** The servers sentence only: the rest of the description names languages in examples. */
const serversSentence = (description: string) => /Servers \(languages\) this run has: ([^\n]*)\./.exec(description)?.[1] ?? "";

describe("the lsp tool's description", () => {
  test("names every server of the catalog and every language each serves", async () => {
    await using dir = await tempDir();
    const sentence = serversSentence(lspDescription(["--workdir", dir.path]));
    const named = new Set(sentence.split(/[\s,()]+/).filter(Boolean));
    const missing = BUILTIN_SERVERS.flatMap((spec) => [spec.id, ...spec.languages]).filter((name) => !named.has(name));
    expect(missing).toEqual([]);
    expect(BUILTIN_SERVERS.length).toBeGreaterThan(30);
  });

  test("follows the run config: a server it adds is named, one it disables is not", async () => {
    await using dir = await tempDir();
    const config = join(dir.path, "run.json");
    await dir.write({ "run.json": JSON.stringify({ resources: { languageServers: { servers: { mylang: { command: "mylang-ls", languages: ["mylang"], extensions: [".my"] }, zig: { disabled: true } } } } }) });
    const sentence = serversSentence(lspDescription(["--workdir", dir.path, "--config", config]));
    expect(sentence).toContain("mylang");
    expect(sentence.split(", ")).not.toContain("zig");
  });
});
