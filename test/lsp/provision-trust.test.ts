// Workspace trust with the real servers the sidecar installs: an untrusted checkout (the default)
// runs none of its own code — not its node_modules/.bin server, not a GraphQL config written in
// JavaScript, not svelte.config.js — and still gets answers; the same checkout trusted runs each,
// which shows the untrusted checks can fail.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, existsSync, readFileSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";
import { languageRun, type LanguageRun } from "./language-run.ts";

// Installs from the registry, then first queries: slow on a loaded machine.
setDefaultTimeout(300_000);

const REPO_BIN = resolve(import.meta.dir, "../../node_modules/.bin");
let marks: TempDir;
let savedPath: string | undefined;

beforeAll(async () => {
  marks = await tempDir("sidecar-marks-");
  // The repo's own typescript-language-server (a devDependency) must not be found on PATH first.
  savedPath = process.env.PATH;
  process.env.PATH = (savedPath ?? "").split(delimiter).filter((dir) => resolve(dir) !== REPO_BIN).join(delimiter);
});

afterAll(async () => {
  process.env.PATH = savedPath;
  await marks?.[Symbol.asyncDispose]();
});

/** A checkout whose own code, wherever a server would run it, appends its name to `marker`. */
function checkout(marker: string): Record<string, string> {
  const record = (name: string) => `require("node:fs").appendFileSync(${JSON.stringify(marker)}, "${name}\\n");\n`;
  return {
    "package.json": JSON.stringify({ name: "fixture", private: true }),
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["src"] }),
    "src/area.ts": "/** The area of a square. */\nexport function area(side: number): number {\n  return side * side;\n}\n",
    "node_modules/.bin/typescript-language-server": `#!/bin/sh\necho "node_modules/.bin/typescript-language-server" >> ${JSON.stringify(marker)}\nexit 1\n`,
    "svelte.config.js": `${record("svelte.config.js")}module.exports = {};\n`,
    "src/Card.svelte": '<script lang="ts">\n  const title: string = "card";\n</script>\n\n<h1>{title}</h1>\n',
    "api/graphql.config.js": `${record("graphql.config.js")}module.exports = { schema: "schema.graphql", documents: "*.graphql" };\n`,
    "api/schema.graphql": "type Query {\n  hello: String\n}\n",
    "api/query.graphql": "query Greeting {\n  hello\n}\n",
  };
}

/** The run, and what of the checkout's code has run so far (each once, by name). */
async function start(trust: "none" | "workspace"): Promise<{ r: LanguageRun; marker: string; ran: () => string[] }> {
  const marker = join(marks.path, `ran-${trust}`);
  const r = await languageRun(["typescript", "svelte", "graphql"], checkout(marker), trust);
  chmodSync(join(r.dir.path, "node_modules/.bin/typescript-language-server"), 0o755);
  return { r, marker, ran: () => (existsSync(marker) ? [...new Set(readFileSync(marker, "utf8").trim().split("\n"))].sort() : []) };
}

describe("untrusted (the default)", () => {
  let run: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    run = await start("none");
  }, 600_000);
  afterAll(async () => {
    await run?.r.dispose();
  });

  test("typescript: the checkout's node_modules/.bin server is skipped, and said so; the sidecar's answers", async () => {
    const hover = await run.r.lsp({ action: "hover", file: "src/area.ts", line: 2, symbol: "area" });
    expect(hover.text).toContain("function area(side: number): number");
    const status = await run.r.lsp({ action: "status" });
    const row = status.text.split("\n").find((line) => line.startsWith("typescript"))!;
    expect(row).toContain("running — skipped node_modules/.bin/typescript-language-server: it is inside the workspace, which is not trusted");
  });

  test("svelte: answers without loading svelte.config.js", async () => {
    const hover = await run.r.lsp({ action: "hover", file: "src/Card.svelte", line: 5, symbol: "title" });
    expect(hover.text).toContain("const title: string");
  });

  test("graphql: not started while a JavaScript config is there, with why and how to trust", async () => {
    const hover = await run.r.lsp({ action: "hover", file: "api/query.graphql", line: 2, symbol: "hello" });
    expect(hover.isError).toBe(true);
    expect(hover.text).toBe(
      'The graphql server for api is not started: api/graphql.config.js is there and the server runs a JavaScript or TypeScript GraphQL config to read it, and this workspace is not trusted (a harness whose user trusts this folder passes "trust": "workspace" in the run config).',
    );
  });

  test("none of the checkout's code ran", () => {
    expect(run.ran()).toEqual([]);
  });
});

describe("the same checkout, trusted", () => {
  test("each of them runs", async () => {
    const run = await start("workspace");
    try {
      await run.r.lsp({ action: "hover", file: "src/area.ts", line: 2, symbol: "area" });
      await run.r.lsp({ action: "hover", file: "src/Card.svelte", line: 5, symbol: "title" });
      await run.r.lsp({ action: "hover", file: "api/query.graphql", line: 2, symbol: "hello" });
      expect(run.ran()).toEqual(["graphql.config.js", "node_modules/.bin/typescript-language-server", "svelte.config.js"]);
    } finally {
      await run.r.dispose();
    }
  });
});
