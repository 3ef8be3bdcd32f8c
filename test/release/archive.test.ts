// Release archives: what they hold, read back by the system's tar and Python's zipfile, and the same bytes every time.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tarGz, zip } from "../../build/archive.ts";
import { archiveEntries, archiveName } from "../../compile.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const root = join(import.meta.dir, "..", "..");
const BINARY = new TextEncoder().encode("#!/bin/sh\necho sidecar 0.0.0-test\n".repeat(300));
const MTIME = 1_767_225_600; // 2026-01-01T00:00:00Z

function run(argv: string[], cwd?: string): string {
  const result = spawnSync(argv[0]!, argv.slice(1), { cwd, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${argv.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

describe("archive names and contents", () => {
  test("one archive per target: .zip for Windows, .tar.gz for the rest", () => {
    expect(archiveName("linux-x64")).toBe("sidecar-linux-x64.tar.gz");
    expect(archiveName("darwin-arm64")).toBe("sidecar-darwin-arm64.tar.gz");
    expect(archiveName("windows-x64")).toBe("sidecar-windows-x64.zip");
  });

  test("a folder named like the archive holds the binary, README.md, LICENSE and every file of docs/", () => {
    const paths = archiveEntries(BINARY, "linux-x64").map((e) => e.path);
    expect(paths).toContain("sidecar-linux-x64/sidecar");
    expect(paths).toContain("sidecar-linux-x64/README.md");
    expect(paths).toContain("sidecar-linux-x64/LICENSE");
    expect(paths).toContain("sidecar-linux-x64/docs/tools.md");
    expect(paths).toContain("sidecar-linux-x64/docs/run-config.schema.json");
    expect(archiveEntries(BINARY, "windows-x64").map((e) => e.path)).toContain("sidecar-windows-x64/sidecar.exe");
  });
});

describe(".tar.gz", () => {
  test("GNU tar lists and extracts it: modes, owner 0, the fixed time, the bytes", async () => {
    await using dir = await tempDir();
    const file = join(dir.path, "a.tar.gz");
    writeFileSync(file, tarGz(archiveEntries(BINARY, "linux-x64"), MTIME));
    const listing = run(["tar", "--numeric-owner", "--full-time", "-tvzf", file, "--utc"]);
    expect(listing).toMatch(/^-rwxr-xr-x 0\/0 +\d+ 2026-01-01 00:00:00 sidecar-linux-x64\/sidecar$/m);
    expect(listing).toMatch(/^-rw-r--r-- 0\/0 +\d+ 2026-01-01 00:00:00 sidecar-linux-x64\/LICENSE$/m);
    expect(listing).toMatch(/^drwxr-xr-x 0\/0 +0 2026-01-01 00:00:00 sidecar-linux-x64\/docs\/$/m);
    run(["tar", "-xzf", file], dir.path);
    const binary = join(dir.path, "sidecar-linux-x64", "sidecar");
    expect(readFileSync(binary)).toEqual(Buffer.from(BINARY));
    expect(statSync(binary).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(dir.path, "sidecar-linux-x64", "docs", "config.md"), "utf8")).toBe(readFileSync(join(root, "docs", "config.md"), "utf8"));
  });

  test("the same entries give the same bytes; gzip's header holds no time", () => {
    const a = tarGz(archiveEntries(BINARY, "linux-x64"), MTIME);
    expect(tarGz(archiveEntries(BINARY, "linux-x64"), MTIME)).toEqual(a);
    expect([...a.subarray(4, 8)]).toEqual([0, 0, 0, 0]);
  });

  test("a path longer than 100 bytes goes through the ustar prefix", async () => {
    await using dir = await tempDir();
    const long = `${"deep/".repeat(30)}file.txt`;
    writeFileSync(join(dir.path, "l.tar.gz"), tarGz([{ path: long, mode: 0o644, data: new TextEncoder().encode("x") }], MTIME));
    expect(run(["tar", "-tzf", join(dir.path, "l.tar.gz")]).trim()).toBe(long);
  });
});

describe(".zip", () => {
  test("Python's zipfile reads it: CRCs, Unix modes, the bytes; the same entries give the same bytes", async () => {
    await using dir = await tempDir();
    const file = join(dir.path, "a.zip");
    const bytes = zip(archiveEntries(BINARY, "windows-x64"), MTIME);
    writeFileSync(file, bytes);
    expect(zip(archiveEntries(BINARY, "windows-x64"), MTIME)).toEqual(bytes);
    const report = run([
      "python3",
      "-c",
      `import json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None
print(json.dumps({i.filename: [oct(i.external_attr >> 16), i.date_time, len(z.read(i))] for i in z.infolist()}))`,
      file,
    ]);
    const entries = JSON.parse(report) as Record<string, [string, number[], number]>;
    expect(entries["sidecar-windows-x64/sidecar.exe"]).toEqual(["0o100755", [2026, 1, 1, 0, 0, 0], BINARY.length]);
    expect(entries["sidecar-windows-x64/LICENSE"]![0]).toBe("0o100644");
    expect(entries["sidecar-windows-x64/docs/"]![0]).toBe("0o40755");
    mkdirSync(join(dir.path, "out"));
    run(["python3", "-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])", file, join(dir.path, "out")]);
    expect(readFileSync(join(dir.path, "out", "sidecar-windows-x64", "sidecar.exe"))).toEqual(Buffer.from(BINARY));
  });
});
