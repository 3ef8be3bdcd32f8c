// A checkout's bunfig.toml does not reach the npm servers the sidecar runs on its own Bun: Bun reads
// it (and its `preload`, code) from the folder it starts in, the server's root. Checked with
// typescript-language-server, which also forks tsserver on the same Bun, trusted or not.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";
import { languageRun } from "./language-run.ts";

// Installs from the registry, then a first hover: slow on a loaded machine.
setDefaultTimeout(300_000);

const REPO_BIN = resolve(import.meta.dir, "../../node_modules/.bin");
let marks: TempDir;
let savedPath: string | undefined;

beforeAll(async () => {
  marks = await tempDir("sidecar-marks-");
  // The repo's own typescript-language-server (a devDependency, run by Node) must not be found first.
  savedPath = process.env.PATH;
  process.env.PATH = (savedPath ?? "").split(delimiter).filter((dir) => resolve(dir) !== REPO_BIN).join(delimiter);
});

afterAll(async () => {
  process.env.PATH = savedPath;
  await marks?.[Symbol.asyncDispose]();
});

/** A TypeScript checkout whose bunfig.toml preloads a script that records every process it runs in. */
function checkout(marker: string): Record<string, string> {
  return {
    "package.json": JSON.stringify({ name: "fixture", private: true }),
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["src"] }),
    "src/area.ts": "/** The area of a square. */\nexport function area(side: number): number {\n  return side * side;\n}\n",
    "bunfig.toml": 'preload = ["./preload.ts"]\n',
    "preload.ts": `require("node:fs").appendFileSync(${JSON.stringify(marker)}, process.argv.join(" ") + "\\n");\n`,
    "noop.js": "",
  };
}

describe("a checkout's bunfig.toml preload", () => {
  test.each(["workspace", "none"] as const)("does not run in the server or in the tsserver it forks (trust %s)", async (trust) => {
    const marker = join(marks.path, `ran-${trust}`);
    const r = await languageRun(["typescript"], checkout(marker), trust);
    try {
      const hover = await r.lsp({ action: "hover", file: "src/area.ts", line: 2, symbol: "area" });
      expect(hover.text).toContain("function area(side: number): number");
      const status = await r.lsp({ action: "status" });
      const row = (status.data.results as { server: string; state: string; source?: string }[]).find((s) => s.server === "typescript");
      expect(row).toMatchObject({ state: "running", source: expect.stringContaining("from the sidecar's cache") });
      expect(existsSync(marker) ? readFileSync(marker, "utf8") : "").toBe("");

      // The same checkout under plain Bun: the preload runs, so the check above can fail.
      spawnSync(process.execPath, ["noop.js"], { cwd: r.dir.path, stdio: "ignore" });
      expect(readFileSync(marker, "utf8")).toContain("noop.js");
    } finally {
      await r.dispose();
    }
  });
});
