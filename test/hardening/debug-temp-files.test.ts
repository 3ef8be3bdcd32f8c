// debug's scratch files live in the shared temp folder, where every local user can create files.
// Their names were predictable (sidecar-debug-stdin-<pid>-<n>, sidecar-dap-endpoints-<pid>-<n>.json),
// so a local user could plant a link there and have the sidecar overwrite a file of the sidecar's
// user with a program's stdin text, or plant an endpoints file naming a port of their own for the
// sidecar's debug client to connect to. The names are random now, and the stdin file is created
// exclusively, never through a link.
import { describe, expect, test } from "bun:test";
import { readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tempDir } from "../helpers/temp-dir.ts";
import { ADAPTER_TEST_TIMEOUT_MS, debugHarness } from "../dap/harness.ts";

describe("debug's scratch files in the shared temp folder", () => {
  test("stdin text: no file is written through a link planted at the scratch file's old name, and the program reads the text", async () => {
    await using dir = await tempDir();
    await using victim = await tempDir("sidecar-victim-");
    await victim.write({ "bashrc": "keep me\n" });
    await dir.write({ "read.py": "import sys\ndata = sys.stdin.read()\nprint('read', len(data), repr(data[:12]))\n" });
    const planted = Array.from({ length: 20 }, (_, k) => join(tmpdir(), `sidecar-debug-stdin-${process.pid}-${k + 1}`));
    for (const path of planted) symlinkSync(join(victim.path, "bashrc"), path);
    try {
      await using h = await debugHarness(dir.path, { stopWaitSeconds: 30 });
      const text = await h.ok({ operation: "launch", program: "read.py", stdin: "hello\nworld\n" });
      expect(text.data.output).toBe("read 12 'hello\\nworld\\n'\n");
    } finally {
      for (const path of planted) rmSync(path, { force: true });
    }
    expect(readFileSync(join(victim.path, "bashrc"), "utf8")).toBe("keep me\n");
  }, ADAPTER_TEST_TIMEOUT_MS);

  test("connects to the adapter it started, not to a port named by an endpoints file planted at the old name", async () => {
    await using dir = await tempDir();
    await dir.write({ "hello.py": "print('hello')\n" });
    let connections = 0;
    const impostor = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve));
    const port = (impostor.address() as { port: number }).port;
    const planted = Array.from({ length: 20 }, (_, k) => join(tmpdir(), `sidecar-dap-endpoints-${process.pid}-${k + 1}.json`));
    for (const path of planted) writeFileSync(path, JSON.stringify({ client: { host: "127.0.0.1", port } }));
    try {
      await using h = await debugHarness(dir.path, { stopWaitSeconds: 30 });
      const ran = await h.ok({ operation: "launch", program: "hello.py" });
      expect(ran.data.output).toBe("hello\n");
    } finally {
      for (const path of planted) rmSync(path, { force: true });
      impostor.close();
    }
    expect(connections).toBe(0);
  }, ADAPTER_TEST_TIMEOUT_MS);
});
