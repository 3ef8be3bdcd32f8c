// resolve accept on a full disk: the write fails with a clear error and every file stays as it was
// (the tree is hashed before and after). The workdir is a tiny tmpfs, which needs root (CI runs as root).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestRun } from "../helpers/sidecar.ts";
import { call } from "../helpers/call.ts";

/** Big enough for the sources, too small for the rewritten copies next to them. */
const TMPFS_BYTES = 256 * 1024;
const mountPoint = mkdtempSync(join(tmpdir(), "sidecar-full-disk-"));

beforeAll(() => {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${TMPFS_BYTES}`, "tmpfs", mountPoint]);
  } catch (error) {
    throw new Error(`This test mounts a small tmpfs as a full disk and needs root: ${(error as Error).message}`);
  }
});

afterAll(() => {
  execFileSync("umount", [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

function treeHash(dir: string): string {
  const hash = createHash("sha256");
  for (const name of readdirSync(dir).sort()) hash.update(name).update("\0").update(readFileSync(join(dir, name))).update("\0");
  return hash.digest("hex");
}

test("resolve accept with the disk full changes no file and says why", async () => {
  const body = Array.from({ length: 1500 }, (_, i) => `int f${i}(void) { return old(${i}); }`).join("\n");
  for (const name of ["a.c", "b.c"]) writeFileSync(join(mountPoint, name), `${body}\n`);
  await using t = await startTestRun(mountPoint, { resources: { parser: { workers: 0 } } });
  const client = await t.client();
  const staged = await call(client, "ast_edit", { pattern: "old($A)", rewrite: "a_much_longer_replacement_call($A)", language: "c" });
  expect(staged.isError).toBe(false);
  // Fill what is left of the disk, so the rewritten copies cannot be written.
  try {
    writeFileSync(join(mountPoint, "filler"), Buffer.alloc(TMPFS_BYTES));
  } catch {
    // ENOSPC once full: exactly what we want
  }
  const before = treeHash(mountPoint);
  const accepted = await call(client, "resolve", { edit_id: staged.data.edit_id, action: "accept" });
  expect(accepted.isError).toBe(true);
  expect(accepted.text).toContain("ENOSPC");
  expect(accepted.text).toContain("nothing changed");
  expect(treeHash(mountPoint)).toBe(before);
  expect(readdirSync(mountPoint).sort()).toEqual(["a.c", "b.c", "filler"]); // no temp file left behind
});
