// Every path a tool receives stays inside the workdir: .., absolute paths and symlinks out are refused;
// and no FIFO, socket or device is opened, nor a file too large to hold.
import { describe, expect, test } from "bun:test";
import { appendFileSync, closeSync, mkdirSync, symlinkSync, truncateSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { readFileInside, readFileInsideAsync, relativeToWorkdir, resolveInWorkdir } from "../../src/workspace/paths.ts";
import { FILE_READ_MAX_BYTES, NotARegularFile, openRegularFileSync, readOpenedSync, readRegularFileEndsSync, readRegularFileSync } from "../../src/workspace/regular-file.ts";
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

describe("a file too large to hold is refused before it is read", () => {
  /** A 3 GB sparse file (it takes no disk space): reading it whole took 40 s of the thread and 3 GB of memory. */
  async function huge() {
    const dir = await tempDir();
    await dir.write({ "a.py": "x = 1\n", "big.py": "" });
    truncateSync(join(dir.path, "big.py"), 3 * 1024 ** 3);
    return dir;
  }

  test("by readFileInside, readFileInsideAsync and readRegularFileSync, at once, with its size in the sentence", async () => {
    await using dir = await huge();
    const big = join(dir.path, "big.py");
    const refusal = "it is 3.0 GB, more than the 64 MB a tool reads of one file, so it was not read";
    expect(() => readFileInside(dir.path, big)).toThrow(refusal);
    await expect(readFileInsideAsync(dir.path, big)).rejects.toThrow(refusal);
    expect(() => readRegularFileSync(big)).toThrow(refusal);
    expect(readRegularFileSync(join(dir.path, "a.py"), 6).toString()).toBe("x = 1\n");
    expect(() => readRegularFileSync(join(dir.path, "a.py"), 5)).toThrow("it is 6 bytes, more than the 5 bytes a tool reads");
    expect(FILE_READ_MAX_BYTES).toBe(64 * 1024 ** 2);
  });

  test("a read stops at the size the file had when it was opened, however much is appended meanwhile", async () => {
    await using dir = await tempDir();
    await dir.write({ "grows.log": "first\n" });
    const path = join(dir.path, "grows.log");
    const { fd, info } = openRegularFileSync(path);
    try {
      appendFileSync(path, "x".repeat(1024 * 1024));
      expect(readOpenedSync(fd, info).toString()).toBe("first\n");
    } finally {
      closeSync(fd);
    }
  });

  test("readRegularFileEndsSync reads only a huge file's two ends", async () => {
    await using dir = await huge();
    const big = join(dir.path, "big.py");
    appendFileSync(big, "the end");
    const { head, tail, size } = readRegularFileEndsSync(big, 16);
    expect(size).toBe(3 * 1024 ** 3 + 7);
    expect([head.length, tail.length]).toEqual([16, 16]);
    expect(tail.toString().endsWith("the end")).toBe(true);
    expect(readRegularFileEndsSync(join(dir.path, "a.py"), 16)).toEqual({ head: Buffer.from("x = 1\n"), tail: Buffer.alloc(0), size: 6 });
  });

  test("a device, or a link to one, is never a file to read", async () => {
    await using dir = await tempDir();
    symlinkSync("/dev/zero", join(dir.path, "zero.py"));
    expect(() => resolveInWorkdir(dir.path, "zero.py")).toThrow("is outside the workspace (a symlink points out of it)");
    expect(() => readRegularFileSync(join(dir.path, "zero.py"))).toThrow("it is a character device, not a regular file");
  });
});
