// Each platform difference, tested branch by branch on whatever OS runs the tests.
import { describe, expect, test } from "bun:test";
import { chmodSync } from "node:fs";
import { join } from "node:path";
import { isEmbeddedPath } from "../../src/platform/embedded-paths.ts";
import { executableNames, findExecutable, pathOf, TRUST_ALL } from "../../src/platform/executables.ts";
import { filePathKey, sameFilePath } from "../../src/platform/file-names.ts";
import { detectLineEnding, withLineEnding } from "../../src/platform/line-endings.ts";
import { platformFacts } from "../../src/platform/os.ts";
import { treeKiller } from "../../src/platform/process-tree.ts";
import { tempDir } from "../helpers/temp-dir.ts";

describe("platform facts", () => {
  test.each([
    ["linux", "posix", false],
    ["darwin", "posix", true],
    ["win32", "windows", true],
  ] as const)("%s is %s, case-insensitive files: %p", (platform, family, caseInsensitive) => {
    expect(platformFacts(platform)).toEqual({ family, caseInsensitiveFiles: caseInsensitive });
  });
});

describe("embedded paths", () => {
  test.each([
    ["/$bunfs/root/sidecar", true],
    ["B:/~BUN/root/sidecar.exe", true],
    ["B:\\~BUN\\root\\sidecar.exe", true],
    ["/usr/local/bin/sidecar", false],
    ["C:/tools/sidecar.exe", false],
  ])("%s embedded: %p", (path, expected) => {
    expect(isEmbeddedPath(path)).toBe(expected);
  });
});

describe("executables", () => {
  test("POSIX looks for the bare name along PATH and needs the exec bit", async () => {
    await using dir = await tempDir();
    await dir.write({ "bin/tool": "#!/bin/sh\n", "bin/plain": "x", "other/tool": "#!/bin/sh\n" });
    chmodSync(join(dir.path, "bin/tool"), 0o755);
    chmodSync(join(dir.path, "other/tool"), 0o755);
    const path = `${join(dir.path, "missing")}:${join(dir.path, "bin")}:${join(dir.path, "other")}`;
    expect(findExecutable("tool", { trust: TRUST_ALL, path, family: "posix" })).toBe(join(dir.path, "bin/tool"));
    expect(findExecutable("plain", { trust: TRUST_ALL, path, family: "posix" })).toBeUndefined();
    expect(findExecutable(join(dir.path, "bin/tool"), { trust: TRUST_ALL, path: "", family: "posix" })).toBe(join(dir.path, "bin/tool"));
  });

  test("Windows tries each PATHEXT suffix, separates PATH with ; and finds Path in any case", () => {
    expect(executableNames("gopls", "windows", ".EXE;.CMD")).toEqual(["gopls.exe", "gopls.cmd", "gopls"]);
    expect(executableNames("gopls.exe", "windows", ".EXE;.CMD")).toEqual(["gopls.exe"]);
    const files = new Set(["C:\\Go\\bin\\gopls.exe", "D:\\node\\tsserver.cmd"]);
    const search = { trust: TRUST_ALL, path: "C:\\Go\\bin;D:\\node\\", pathext: ".EXE;.CMD", family: "windows" as const, isExecutable: (c: string) => files.has(c) };
    expect(findExecutable("gopls", search)).toBe("C:\\Go\\bin\\gopls.exe");
    expect(findExecutable("tsserver", search)).toBe("D:\\node\\tsserver.cmd");
    expect(findExecutable("clangd", search)).toBeUndefined();
    expect(pathOf({ Path: "C:\\x" })).toBe("C:\\x");
  });
});

describe("line endings", () => {
  test.each([
    ["a\nb\n", "\n"],
    ["a\r\nb\r\n", "\r\n"],
    ["a\r\nb\nc\r\n", "\r\n"],
    ["no newline", "\n"],
  ] as const)("%j is %j", (text, ending) => {
    expect(detectLineEnding(text)).toBe(ending);
  });

  test("text is rewritten into the file's own ending", () => {
    expect(withLineEnding("a\nb\r\nc", "\r\n")).toBe("a\r\nb\r\nc");
    expect(withLineEnding("a\r\nb\nc", "\n")).toBe("a\nb\nc");
  });
});

describe("file names", () => {
  test("case-insensitive file systems fold case and slashes; others keep case", () => {
    expect(sameFilePath("Src/A.ts", "src\\a.ts", true)).toBe(true);
    expect(sameFilePath("Src/A.ts", "src/a.ts", false)).toBe(false);
    expect(filePathKey("a\\B", false)).toBe("a/B");
  });
});

describe("process trees", () => {
  test("POSIX signals the group, falling back to the process when it is no group leader", () => {
    const calls: [number, string][] = [];
    const killer = treeKiller("posix", {
      kill: (pid: number, signal: string) => {
        calls.push([pid, signal]);
        if (pid < 0) throw new Error("ESRCH");
        return true;
      },
      taskkill: () => {},
    } as never);
    expect(killer.detachChildren).toBe(true);
    killer.signalTree(42, "SIGTERM");
    expect(calls).toEqual([
      [-42, "SIGTERM"],
      [42, "SIGTERM"],
    ]);
  });

  test("Windows uses taskkill /T, forcing only for SIGKILL, and does not detach", () => {
    const calls: [number, boolean][] = [];
    const killer = treeKiller("windows", { kill: () => true, taskkill: (pid: number, force: boolean) => calls.push([pid, force]) } as never);
    expect(killer.detachChildren).toBe(false);
    killer.signalTree(7, "SIGTERM");
    killer.signalTree(7, "SIGKILL");
    expect(calls).toEqual([
      [7, false],
      [7, true],
    ]);
  });
});
