// Detaching from an attached program leaves it running, for every adapter, and the answer says what was checked.
import { describe, expect, test } from "bun:test";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { procStatFields } from "../../src/platform/proc-stat.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { freePort } from "../helpers/free-port.ts";
import { ADAPTER_TEST_TIMEOUT_MS, count, debugHarness, killSession, requireTool, untilCountPasses, untilListening } from "./harness.ts";

/** No thread of the process is stopped (t: by a tracer, T: by a signal). */
function noThreadStopped(pid: number): boolean {
  const tasks = spawnSync("ls", [`/proc/${pid}/task`], { encoding: "utf8" }).stdout.split("\n").filter(Boolean);
  return tasks.every((tid) => !["t", "T"].includes(procStatFields(pid, Number(tid))?.[0] ?? ""));
}

function serve(command: string, args: string[], cwd: string): ChildProcess {
  return spawn(command, args, { cwd, stdio: "ignore", detached: true });
}

describe("terminate after attach lets the program run on, and says so only once checked", () => {
  test("delve: a program stopped at a breakpoint under dlv --headless --accept-multiclient runs again after terminate", async () => {
    requireTool("/usr/bin/dlv", "apt install delve golang-go");
    await using dir = await tempDir();
    await dir.write({
      "go.mod": "module example.com/c\n\ngo 1.19\n",
      "main.go":
        'package main\n\nimport (\n\t"os"\n\t"strconv"\n\t"time"\n)\n\nfunc main() {\n\tn := 0\n\tfor {\n\t\tn++\n\t\tos.WriteFile("count.txt", []byte(strconv.Itoa(n)), 0o644)\n\t\ttime.Sleep(10 * time.Millisecond)\n\t}\n}\n',
    });
    const port = await freePort();
    const server = serve("dlv", ["debug", "--headless", "--listen", `127.0.0.1:${port}`, "--accept-multiclient", "--api-version=2", "--continue"], dir.path);
    try {
      await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
      await untilListening(port);
      await untilCountPasses(dir.path, 0);
      await h.ok({ operation: "breakpoints", file: "main.go", lines: [12] });
      const attached = await h.ok({ operation: "attach", port, adapter: "delve" });
      expect(attached.data).toMatchObject({ state: "stopped", frame: { file: "main.go", line: 12 } });
      const ended = await h.ok({ operation: "terminate" });
      const pid = Number(/pid (\d+)/.exec(ended.text)?.[1]);
      expect(ended.text).toContain(`detached from the program (pid ${pid}), which is running`);
      expect(noThreadStopped(pid)).toBe(true);
      const after = count(dir.path);
      expect(await untilCountPasses(dir.path, after)).toBeGreaterThan(after);
    } finally {
      killSession(server.pid);
    }
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("debugpy: a program attached with debugpy --listen keeps counting after terminate", async () => {
    requireTool("/usr/bin/python3", "apt install python3-debugpy");
    await using dir = await tempDir();
    await dir.write({ "count.py": "import time\nn = 0\nwhile True:\n    n += 1\n    open('count.txt', 'w').write(str(n))\n    time.sleep(0.01)\n" });
    const port = await freePort();
    const server = serve("/usr/bin/python3", ["-m", "debugpy", "--listen", `127.0.0.1:${port}`, "count.py"], dir.path);
    try {
      await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
      await untilListening(port);
      await h.ok({ operation: "breakpoints", file: "count.py", lines: [4] });
      const attached = await h.ok({ operation: "attach", port, adapter: "debugpy" });
      expect(attached.data).toMatchObject({ state: "stopped", frame: { file: "count.py", line: 4 } });
      const ended = await h.ok({ operation: "terminate" });
      expect(ended.text).toContain(`detached from the program (pid ${server.pid}), which is running`);
      const after = count(dir.path);
      expect(await untilCountPasses(dir.path, after)).toBeGreaterThan(after);
    } finally {
      killSession(server.pid);
    }
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("lldb: a program served by lldb-server gdbserver runs on after terminate", async () => {
    requireTool("/usr/bin/lldb-server-16", "apt install lldb-16");
    requireTool("/usr/bin/gcc", "apt install gcc");
    await using dir = await tempDir();
    await dir.write({
      "count.c":
        '#include <stdio.h>\n#include <unistd.h>\n\nint main(void) {\n  for (int n = 1;; n++) {\n    FILE *f = fopen("count.txt", "w");\n    fprintf(f, "%d", n);\n    fclose(f);\n    usleep(10000);\n  }\n}\n',
    });
    const gcc = spawnSync("gcc", ["-g", "-O0", "-o", "count", "count.c"], { cwd: dir.path, encoding: "utf8" });
    if (gcc.status !== 0) throw new Error(`gcc failed: ${gcc.stderr}`);
    const port = await freePort();
    const server = serve("/usr/bin/lldb-server-16", ["gdbserver", `127.0.0.1:${port}`, "./count"], dir.path);
    try {
      await using h = await debugHarness(dir.path, { stopWaitSeconds: 60 });
      await untilListening(port);
      await h.ok({ operation: "breakpoints", file: "count.c", lines: [6] });
      const attached = await h.ok({ operation: "attach", port, adapter: "lldb" });
      expect(attached.data).toMatchObject({ state: "stopped", frame: { file: "count.c", line: 6 } });
      const ended = await h.ok({ operation: "terminate" });
      expect(ended.text).toMatch(/detached from the program \(pid \d+\), which is running/);
      const after = count(dir.path);
      expect(await untilCountPasses(dir.path, after)).toBeGreaterThan(after);
    } finally {
      killSession(server.pid);
    }
  }, ADAPTER_TEST_TIMEOUT_MS);
});
