// Every path a tool receives stays inside the workdir: .., absolute paths and symlinks out are refused.
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { relativeToWorkdir, resolveInWorkdir } from "../../src/workspace/paths.ts";
import { tempDir } from "../helpers/temp-dir.ts";

describe("resolveInWorkdir", () => {
  test("relative and absolute paths inside resolve to real paths, missing files included", async () => {
    await using dir = await tempDir();
    await dir.write({ "src/a.ts": "x" });
    expect(resolveInWorkdir(dir.path, "src/a.ts")).toBe(join(dir.path, "src/a.ts"));
    expect(resolveInWorkdir(dir.path, join(dir.path, "src/a.ts"))).toBe(join(dir.path, "src/a.ts"));
    expect(resolveInWorkdir(dir.path, "src/new/b.ts")).toBe(join(dir.path, "src/new/b.ts"));
    expect(resolveInWorkdir(dir.path, "src/../src/a.ts")).toBe(join(dir.path, "src/a.ts"));
    expect(resolveInWorkdir(dir.path, ".")).toBe(dir.path);
  });

  test.each(["..", "../x", "src/../../x", "/etc/passwd", "/"])("%p is refused", async (given) => {
    await using dir = await tempDir();
    expect(() => resolveInWorkdir(dir.path, given)).toThrow("outside the workspace");
  });

  test("symlinks pointing out are refused, for files, folders and not-yet-existing children", async () => {
    await using dir = await tempDir();
    await using outside = await tempDir();
    await outside.write({ "secret.txt": "s" });
    symlinkSync(join(outside.path, "secret.txt"), join(dir.path, "link.txt"));
    symlinkSync(outside.path, join(dir.path, "linkdir"));
    symlinkSync("/nonexistent/target", join(dir.path, "dangling"));
    expect(() => resolveInWorkdir(dir.path, "link.txt")).toThrow("a symlink points out of it");
    expect(() => resolveInWorkdir(dir.path, "linkdir/secret.txt")).toThrow("outside the workspace");
    expect(() => resolveInWorkdir(dir.path, "linkdir/new-file")).toThrow("outside the workspace");
    expect(() => resolveInWorkdir(dir.path, "dangling")).toThrow("outside the workspace");
  });

  test("a symlink that stays inside is followed", async () => {
    await using dir = await tempDir();
    mkdirSync(join(dir.path, "real"));
    symlinkSync(join(dir.path, "real"), join(dir.path, "alias"));
    expect(resolveInWorkdir(dir.path, "alias/x")).toBe(join(dir.path, "real/x"));
  });

  test("a NUL byte is refused", async () => {
    await using dir = await tempDir();
    expect(() => resolveInWorkdir(dir.path, "a\0b")).toThrow("NUL");
  });

  test("relativeToWorkdir gives forward-slash paths", async () => {
    expect(relativeToWorkdir("/w", "/w/src/a.ts")).toBe("src/a.ts");
    expect(relativeToWorkdir("/w", "/w")).toBe(".");
  });
});
