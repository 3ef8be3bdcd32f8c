// `sidecar doctor`'s workers group: says whether this checkout can give each worker a git worktree.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { workerChecks } from "../../src/workers/doctor.ts";
import { tempDir } from "../helpers/temp-dir.ts";

describe("the workers doctor group", () => {
  test("a git checkout with a commit can give workers worktrees", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.txt": "a\n" });
    const git = (...args: string[]) => execFileSync("git", args, { cwd: dir.path, stdio: "pipe" });
    git("init", "-q");
    git("add", ".");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init");
    const [row] = await workerChecks({ workdir: dir.path, runtime: bunPrimitives });
    expect(row).toMatchObject({ group: "workers", name: "isolation worktree", ok: true });
    expect(row!.detail).toMatch(/^git worktrees can be made from HEAD [0-9a-f]{12}$/);
  });

  test("a plain directory cannot, and the hint names both ways out", async () => {
    await using dir = await tempDir();
    const [row] = await workerChecks({ workdir: dir.path, runtime: bunPrimitives });
    expect(row).toMatchObject({ ok: false });
    expect(row!.detail).toContain("is not a git checkout with a commit");
    expect(row!.hint).toBe('commit once in this checkout, or use isolation "workdir"; workers with isolation "workdir" work anywhere');
  });
});
