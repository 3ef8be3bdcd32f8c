// The one lookup's trust rule (src/platform/executables.ts): untrusted, no PATH entry that is
// relative or lies inside the workdir (by name or through a symlink) is searched, and no file that
// leads into it runs; trusted, PATH is searched as the OS would.
import { describe, expect, test } from "bun:test";
import { chmodSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { findExecutable, findExecutables, mayRun, pathFolders, refusedExecutables, trustedEnv } from "../../src/platform/executables.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";

/** A machine folder (`outside/`) and a checkout (`checkout/`), each holding a runnable `tool`. */
async function layout(dir: TempDir) {
  await dir.write({ "outside/bin/tool": "#!/bin/sh\n", "checkout/bin/tool": "#!/bin/sh\n" });
  chmodSync(join(dir.path, "outside/bin/tool"), 0o755);
  chmodSync(join(dir.path, "checkout/bin/tool"), 0o755);
  const workdir = join(dir.path, "checkout");
  // A folder outside whose name hides that it is the checkout's bin/.
  symlinkSync(join(workdir, "bin"), join(dir.path, "innocent"));
  return { workdir, outside: join(dir.path, "outside/bin"), inside: join(workdir, "bin"), link: join(dir.path, "innocent") };
}

describe("an untrusted search", () => {
  test.each([
    ["an entry inside the workdir", (l: Awaited<ReturnType<typeof layout>>) => l.inside],
    ["a symlink outside that leads into the workdir", (l: Awaited<ReturnType<typeof layout>>) => l.link],
    ["a relative entry", () => "checkout/bin"],
  ])("skips %s and finds the machine's program after it", async (_, first) => {
    await using dir = await tempDir();
    const l = await layout(dir);
    const search = { trust: { workspace: false, workdir: l.workdir }, path: `${first(l)}:${l.outside}` };
    expect(findExecutable("tool", search)).toBe(join(l.outside, "tool"));
    expect(pathFolders(search)).toEqual({ searched: [l.outside], refused: [first(l)] });
  });

  test("names what it refused, so an answer can say so", async () => {
    await using dir = await tempDir();
    const l = await layout(dir);
    const search = { trust: { workspace: false, workdir: l.workdir }, path: `${l.link}:${l.outside}` };
    expect(refusedExecutables("tool", search)).toEqual([join(l.link, "tool")]);
  });

  test("refuses a file that leads into the workdir, whatever folder holds it, and a path given inside it", async () => {
    await using dir = await tempDir();
    const l = await layout(dir);
    await dir.write({ "shelf/.keep": "" });
    symlinkSync(join(l.inside, "tool"), join(dir.path, "shelf/tool"));
    const trust = { workspace: false, workdir: l.workdir };
    expect(findExecutables("tool", { trust, path: join(dir.path, "shelf") })).toEqual([]);
    expect(findExecutable(join(l.inside, "tool"), { trust, path: "" })).toBeUndefined();
    expect(findExecutable(join(l.link, "tool"), { trust, path: "" })).toBeUndefined();
    expect(mayRun(join(l.outside, "tool"), trust)).toBe(true);
    expect(mayRun("bin/tool", trust)).toBe(false);
  });

  test("cuts the children's PATH by the same rule", async () => {
    await using dir = await tempDir();
    const l = await layout(dir);
    const env = trustedEnv({ PATH: `${l.link}:${l.inside}::${l.outside}`, HOME: "/home/x" }, { workspace: false, workdir: l.workdir });
    expect(env).toEqual({ PATH: l.outside, HOME: "/home/x" });
  });
});

describe("a trusted search", () => {
  test("uses the checkout's folders in PATH order", async () => {
    await using dir = await tempDir();
    const l = await layout(dir);
    const search = { trust: { workspace: true, workdir: l.workdir }, path: `${l.link}:${l.outside}` };
    expect(findExecutables("tool", search)).toEqual([join(l.link, "tool"), join(l.outside, "tool")]);
    expect(trustedEnv({ PATH: search.path }, search.trust)).toEqual({ PATH: search.path });
  });
});
