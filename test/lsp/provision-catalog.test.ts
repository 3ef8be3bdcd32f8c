// The catalog, its embedded lockfiles and docs/lsp.md agree: every pin is the one installed and the one documented.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BUILTIN_SERVERS } from "../../src/lsp/catalog.ts";
import { installPlanOf } from "../../src/lsp/provision/cache.ts";

const DOCS = readFileSync(join(import.meta.dir, "../../docs/lsp.md"), "utf8");
const NPM = BUILTIN_SERVERS.filter((spec) => spec.npm);

/** bun.lock is JSON with trailing commas. */
function parseLock(text: string): { workspaces: { "": { dependencies: Record<string, string> } }; overrides?: Record<string, string>; packages: Record<string, [string, string, unknown, string]> } {
  return JSON.parse(text.replace(/,(\s*[}\]])/g, "$1"));
}

describe("the npm servers' lockfiles", () => {
  test.each(NPM.map((spec) => [spec.id, spec] as const))("%s: the lockfile pins exactly the catalog's packages, each with an integrity hash", (_id, spec) => {
    const plan = installPlanOf(spec, BUILTIN_SERVERS)!;
    const lock = parseLock(plan.lockfile);
    expect(lock.workspaces[""].dependencies).toEqual({ ...spec.npm!.packages });
    if (spec.npm!.overrides) expect(lock.overrides).toEqual({ ...spec.npm!.overrides });
    for (const [name, version] of Object.entries(spec.npm!.packages)) expect(lock.packages[name]![0]).toBe(`${name}@${version}`);
    const unhashed = Object.values(lock.packages).filter((entry) => !String(entry[3]).startsWith("sha512-"));
    expect(unhashed).toEqual([]);
  });
});

describe("docs/lsp.md", () => {
  test("its language tables name every catalog server, and each npm server with its pinned packages", () => {
    for (const spec of BUILTIN_SERVERS) {
      const row = DOCS.split("\n").find((line) => line.startsWith(`| ${spec.id} |`));
      expect(row, `no row for ${spec.id}`).toBeDefined();
      const pins = Object.entries(spec.npm?.packages ?? {}).map(([name, version]) => `${name}@${version}`).join(" + ");
      if (pins) expect(row).toContain(pins);
    }
  });

  test("each npm server's row names test files that exist and test that server", () => {
    for (const spec of NPM) {
      const row = DOCS.split("\n").find((line) => line.startsWith(`| ${spec.id} |`))!;
      const files = [...row.split(" | ").at(-1)!.matchAll(/[\w-]+\.test\.ts/g)].map((match) => match[0]);
      expect(files.length, `no test file named for ${spec.id}`).toBeGreaterThan(0);
      for (const file of files) expect(readFileSync(join(import.meta.dir, file), "utf8").toLowerCase(), `${file} for ${spec.id}`).toContain(spec.id);
    }
  });

  test("the catalog covers at least 30 languages", () => {
    const languages = new Set(BUILTIN_SERVERS.flatMap((spec) => spec.languages.map((language) => language.replace(/react$/, ""))));
    expect(languages.size).toBeGreaterThanOrEqual(30);
  });
});
