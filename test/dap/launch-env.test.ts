// launch's env: variables set over the environment the program inherits, with every adapter that
// runs here (debugpy, lldb, delve, the sidecar's own Node.js adapter), kept for restart.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { tempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, debugHarness, requireDebugpy, requireTool } from "./harness.ts";

/** Set in the test's own environment, so the sidecar (and through it each program) inherits it. */
const INHERITED = "SIDECAR_TEST_INHERITED";
process.env[INHERITED] = "from the sidecar";


describe("launch with env", () => {
  test("debugpy: the program sees the given variables and the inherited ones; a given name wins; restart keeps them", async () => {
    requireDebugpy();
    await using dir = await tempDir();
    await dir.write({ "env.py": `import os\nprint(os.environ.get("GREETING"), "|", os.environ.get("${INHERITED}"), "|", os.environ.get("PYTHONUNBUFFERED"))\n` });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 30 });
    const plain = await h.ok({ operation: "launch", program: "env.py" });
    expect(plain.data).toMatchObject({ state: "exited", output: "None | from the sidecar | 1\n" });
    const given = await h.ok({ operation: "launch", program: "env.py", env: { GREETING: "hello there", [INHERITED]: "overridden" } });
    expect(given.data).toMatchObject({ state: "exited", output: "hello there | overridden | 1\n" });
    const again = await h.ok({ operation: "restart" });
    expect(again.data).toMatchObject({ state: "exited", output: "hello there | overridden | 1\n" });
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("lldb: a C program sees the given variable and the inherited one", async () => {
    requireTool("/usr/bin/lldb-vscode-16", "apt install lldb-16");
    requireTool("/usr/bin/gcc", "apt install gcc");
    await using dir = await tempDir();
    await dir.write({ "env.c": `#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n  printf("%s | %s\\n", getenv("GREETING"), getenv("${INHERITED}"));\n  return 0;\n}\n` });
    const built = spawnSync("gcc", ["-g", "-O0", "-o", "env", "env.c"], { cwd: dir.path, encoding: "utf8" });
    if (built.status !== 0) throw new Error(`gcc failed: ${built.stderr}`);
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 30 });
    const given = await h.ok({ operation: "launch", program: "env", env: { GREETING: "hello there" } });
    expect(given.data).toMatchObject({ state: "exited", exit_code: 0, output: "hello there | from the sidecar\n" });
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("delve: a Go program sees the given variable and the inherited one", async () => {
    requireTool("/usr/bin/dlv", "apt install delve golang-go");
    await using dir = await tempDir();
    await dir.write({
      "go.mod": "module example.com/e\n\ngo 1.19\n",
      "main.go": `package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nfunc main() {\n\tfmt.Printf("%s | %s\\n", os.Getenv("GREETING"), os.Getenv("${INHERITED}"))\n}\n`,
    });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    const given = await h.ok({ operation: "launch", program: ".", env: { GREETING: "hello there" } });
    expect(given.data).toMatchObject({ state: "exited", output: "hello there | from the sidecar\n" });
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("node: a JavaScript program sees the given variable and the inherited one, and evaluate reads it at a stop", async () => {
    requireTool("/usr/bin/node", "apt install nodejs");
    await using dir = await tempDir();
    await dir.write({ "package.json": "{}\n", "env.js": `const greeting = process.env.GREETING;\nconsole.log(greeting, "|", process.env.${INHERITED});\n` });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    await h.ok({ operation: "breakpoints", file: "env.js", lines: [2] });
    const stopped = await h.ok({ operation: "launch", program: "env.js", env: { GREETING: "hello there" } });
    expect(stopped.data).toMatchObject({ state: "stopped", frame: { line: 2 } });
    expect((await h.ok({ operation: "evaluate", expression: "greeting" })).data.result).toBe('"hello there"');
    const done = await h.ok({ operation: "continue" });
    expect(done.data).toMatchObject({ state: "exited", output: "hello there | from the sidecar\n" });
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("node: untrusted, a given PATH loses its entries inside the checkout, as the adapter's own PATH does", async () => {
    requireTool("/usr/bin/node", "apt install nodejs");
    await using dir = await tempDir();
    await dir.write({ "package.json": "{}\n", "path.js": "console.log(process.env.PATH);\n" });
    await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
    const given = await h.ok({ operation: "launch", program: "path.js", env: { PATH: `${join(dir.path, "bin")}:/usr/bin:/bin` } });
    expect(given.data).toMatchObject({ state: "exited", output: "/usr/bin:/bin\n" });
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("the tag by which the sidecar finds a program that left its process group cannot be set", async () => {
    await using dir = await tempDir();
    await dir.write({ "package.json": "{}\n", "env.js": "console.log(1);\n" });
    await using h = await debugHarness(dir.path);
    const refused = await h.call({ operation: "launch", program: "env.js", env: { SIDECAR_TREE_1: "x" } });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("env may not set SIDECAR_TREE_1");
    expect(JSON.stringify(refused.data)).toContain("invalid_arguments");
  });
});
