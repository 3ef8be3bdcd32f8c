// Every path a tool receives stays inside the workdir: .., absolute paths and symlinks out are refused;
// and no FIFO, socket or device is opened.
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { readFileInside, readFileInsideAsync, relativeToWorkdir, resolveInWorkdir } from "../../src/workspace/paths.ts";
import { NotARegularFile, readRegularFileSync } from "../../src/workspace/regular-file.ts";
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

describe("special files are refused before anything opens them", () => {
  /** A FIFO, a unix socket (held by a listening server) and a link to a FIFO, in a fresh workdir. */
  async function specials() {
    const dir = await tempDir();
    await dir.write({ "a.py": "x = 1\n" });
    expect(Bun.spawnSync(["mkfifo", join(dir.path, "pipe.py")]).exitCode).toBe(0);
    symlinkSync(join(dir.path, "pipe.py"), join(dir.path, "link.py"));
    const server = createServer().listen(join(dir.path, "sock.py"));
    await new Promise((resolve) => server.once("listening", resolve));
    return {
      dir,
      async [Symbol.asyncDispose]() {
        await new Promise((resolve) => server.close(resolve));
        await dir[Symbol.asyncDispose]();
      },
    };
  }

  test.each([
    { name: "pipe.py", kind: "a FIFO (named pipe)" },
    { name: "link.py", kind: "a FIFO (named pipe)" },
    { name: "sock.py", kind: "a socket" },
  ])("resolveInWorkdir refuses $name: $kind", async ({ name, kind }) => {
    await using s = await specials();
    expect(() => resolveInWorkdir(s.dir.path, name)).toThrow(`The path "${name}" is ${kind}, not a regular file or a folder, so it was not opened.`);
    expect(resolveInWorkdir(s.dir.path, "a.py")).toBe(join(s.dir.path, "a.py"));
  });

  // A path checked while it was a regular file and swapped for a FIFO before the read: the read
  // refuses it instead of waiting in open() for a writer that never comes.
  test("readFileInside and readFileInsideAsync refuse a FIFO at once", async () => {
    await using s = await specials();
    const pipe = join(s.dir.path, "pipe.py");
    expect(() => readFileInside(s.dir.path, pipe)).toThrow(new NotARegularFile("a FIFO (named pipe)"));
    await expect(readFileInsideAsync(s.dir.path, pipe)).rejects.toThrow("it is a FIFO (named pipe), not a regular file, so it was not opened");
    expect(() => readRegularFileSync(join(s.dir.path, "sock.py"))).toThrow("it is a socket, not a regular file");
    expect(readFileInside(s.dir.path, join(s.dir.path, "a.py")).toString()).toBe("x = 1\n");
  });
});
