// No write lands outside the workdir under a race: while a small C program swaps `wd/pkg` with a
// symlink to an outside folder as fast as the kernel allows (renameat2 RENAME_EXCHANGE), `resolve
// accept` and `lsp_rename` write into pkg/ again and again for a bounded time. The outside folder must
// end exactly as it began (no changed file, no new file, no temp file), no temp file may be left in
// the workdir, and every file inside holds one whole version or the other.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";
import { call } from "../helpers/call.ts";

/** How long each tool is raced: long enough for a few hundred writes, bounded for the suite. */
const RACE_MS = 20_000;

/** How long the swapper holds pkg/ as the folder and as the link, in microseconds. */
interface Hold {
  folder: number;
  link: number;
}

/** The lsp_rename race's (see there). */
const TSSERVER_HOLD: Hold = { folder: 400, link: 1 };

let swapper: string;
let build: string;

beforeAll(() => {
  build = mkdtempSync(join(tmpdir(), "sidecar-swapper-"));
  swapper = join(build, "swap-folders");
  const cc = Bun.spawnSync(["gcc", "-O2", "-o", swapper, join(import.meta.dir, "fixtures/swap-folders.c")], { stderr: "pipe" });
  if (cc.exitCode !== 0) throw new Error(`gcc (installed by build/install-test-deps.sh) failed: ${cc.stderr.toString()}`);
});

afterAll(() => rmSync(build, { recursive: true, force: true }));

/** Every file below `root` (links not followed), relative path → content; a link shows as its target. */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const visit = (dir: string, rel: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const name = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) visit(path, name);
      else if (entry.isSymbolicLink()) files[name] = `-> ${readlinkSync(path)}`;
      else files[name] = readFileSync(path, "utf8");
    }
  };
  visit(root, "");
  return files;
}

/**
 * Swaps `wd/pkg` with `wd/pkg-swap` (a symlink to `outside`) for RACE_MS, holding each state as
 * long as `holdMicros` says, while `attempt` runs again
 * and again; counts the attempts that reported a write. The swapper stops at the deadline even while
 * a call is in flight (a language server can stall until the tree holds still), and leaves pkg a
 * folder again.
 */
async function raceWhileSwapping(dir: TempDir, outside: TempDir, holdMicros: Hold, attempt: () => Promise<boolean>) {
  symlinkSync(outside.path, join(dir.path, "pkg-swap"));
  const child = Bun.spawn([swapper, join(dir.path, "pkg"), join(dir.path, "pkg-swap"), String(holdMicros.folder), String(holdMicros.link)], { stdout: "pipe", stderr: "pipe" });
  const deadline = setTimeout(() => child.kill("SIGTERM"), RACE_MS);
  let attempts = 0;
  let written = 0;
  try {
    while (child.exitCode === null) {
      attempts++;
      if (await attempt()) written++;
    }
  } finally {
    clearTimeout(deadline);
    child.kill("SIGTERM");
  }
  const code = await child.exited;
  if (code !== 0) throw new Error(`the swapper failed: ${await new Response(child.stderr).text()}`);
  expect(statSync(join(dir.path, "pkg")).isDirectory()).toBe(true);
  const swaps = Number((await new Response(child.stdout).text()).trim());
  return { attempts, written, swaps };
}

/** A workdir with `source` in pkg/ (and `beside` at its top), and an outside folder holding the same files as pkg/. */
async function raceTrees(source: Record<string, string>, beside: Record<string, string> = {}) {
  const outside = await tempDir("sidecar-outside-");
  const dir = await tempDir();
  await dir.write({ ...beside, ...Object.fromEntries(Object.entries(source).map(([rel, text]) => [`pkg/${rel}`, text])) });
  await outside.write(source);
  const before = snapshot(outside.path);
  return {
    dir,
    outside,
    /** The outside folder is as it began, no temp file is left inside, and `file` holds one of `versions` whole. */
    expectNothingEscaped(file: string, versions: string[]) {
      expect(snapshot(outside.path)).toEqual(before);
      const inside = snapshot(dir.path);
      expect(Object.keys(inside).filter((name) => name.includes("sidecar-tmp"))).toEqual([]);
      expect(versions).toContain(inside[file]!);
    },
    async [Symbol.asyncDispose]() {
      await dir[Symbol.asyncDispose]();
      await outside[Symbol.asyncDispose]();
    },
  };
}

describe("a folder swapped for a symlink out, again and again, while the sidecar writes into it", () => {
  test("resolve accept never writes outside and leaves no temp file anywhere", async () => {
    await using trees = await raceTrees({ "mod.py": "a = 1\nb = 1\n", "dir/b.py": "c = 1\n" });
    const { dir, outside } = trees;
    await using t = await startTestRun(dir.path, { resources: { parser: {} } });
    const client = await t.client();
    let value = 1;
    const refusals = new Set<string>();
    const { attempts, written, swaps } = await raceWhileSwapping(dir, outside, { folder: 0, link: 0 }, async () => {
      const staged = await call(client, "ast_edit", { pattern: `$X = ${value}`, rewrite: `$X = ${3 - value}`, path: "pkg", language: "python" });
      if (staged.isError || staged.data.edit_id === undefined) return false;
      const accepted = await call(client, "resolve", { edit_id: staged.data.edit_id, action: "accept" });
      if (accepted.isError) {
        refusals.add(accepted.text.replace(/edit_\d+/, "edit_N").replace(/\/tmp\/\S+/g, "…").slice(0, 160));
        return false;
      }
      value = 3 - value;
      return true;
    });
    console.log(`resolve race: ${attempts} attempts, ${written} accepted, ${swaps} swaps; refusals: ${[...refusals].join(" | ")}`);
    trees.expectNothingEscaped("pkg/mod.py", ["a = 1\nb = 1\n", "a = 2\nb = 2\n"]);
    expect(attempts).toBeGreaterThan(20);
    expect(written).toBeGreaterThan(0);
  }, RACE_MS + 30_000);

  // typescript-language-server: pyright, with pkg/ flipping under it, leaves its analysis progress
  // open, and each query then waits for it (INDEXING_WAIT_MS), so a 20 s race would see few writes.
  // tsserver stalls too while pkg/ flips a million times a second (its watchers), and a rename
  // passes several checks before it writes, so here pkg/ stays a folder most of the time and
  // becomes the link for the shortest sleep, thousands of times a second: the writer's window is hit.
  test("lsp_rename never writes outside and leaves no temp file anywhere", async () => {
    await using trees = await raceTrees(
      { "mod.ts": "export const value = 1;\n", "dir/b.ts": "export const other = 2;\n" },
      { "tsconfig.json": "{}", "top.ts": "import { value } from './pkg/mod';\nconsole.log(value);\n" },
    );
    const { dir, outside } = trees;
    await using t = await startTestRun(dir.path, { resources: { languageServers: {} } });
    const client: Client = await t.client();
    // The server is up and has read the project before the race starts.
    expect((await call(client, "lsp", { action: "hover", file: "pkg/mod.ts", line: 1, symbol: "value" })).isError).toBe(false);
    const names = ["value", "renamed"];
    let current = 0;
    const refusals = new Set<string>();
    const { attempts, written, swaps } = await raceWhileSwapping(dir, outside, TSSERVER_HOLD, async () => {
      // The declaration's file, so the rename writes into pkg/ (its path is refused while pkg is the link).
      const r = await call(client, "lsp_rename", { file: "pkg/mod.ts", line: 1, symbol: names[current]!, new_name: names[1 - current]! });
      if (r.isError) {
        refusals.add(r.text.replace(/\/tmp\/\S+/g, "…").slice(0, 90));
        if (r.text.includes("does not occur on line 1")) current = 1 - current; // a write this loop could not see landed
        return false;
      }
      current = 1 - current;
      return true;
    });
    console.log(`lsp_rename race: ${attempts} attempts, ${written} written, ${swaps} swaps; refusals: ${[...refusals].join(" | ")}`);
    trees.expectNothingEscaped("pkg/mod.ts", ["export const value = 1;\n", "export const renamed = 1;\n"]);
    expect(attempts).toBeGreaterThan(4); // the server answers slowly on a loaded machine: writes count, not attempts
    expect(written).toBeGreaterThan(0);
  }, RACE_MS + 60_000);
});
