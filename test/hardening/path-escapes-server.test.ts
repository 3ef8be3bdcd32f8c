// A file swapped for a symlink out while its language server starts is refused and never sent to
// the server (pyright: this file is in the full suite, not the unit tier). The other path escapes
// are in path-escapes.test.ts.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { procStatFields } from "../../src/platform/proc-stat.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call } from "../helpers/call.ts";

const SECRET = "outside_secret_value";
const OUTSIDE_SOURCE = `${SECRET} = 1\nprint(${SECRET})\n`;

describe("path escapes while a language server starts", () => {
  test("a file swapped for a symlink out while its language server starts is refused, not sent to the server", async () => {
    await using outside = await tempDir("sidecar-outside-");
    await using dir = await tempDir();
    await outside.write({ "secret.py": OUTSIDE_SOURCE });
    await dir.write({ "pyproject.toml": "", "mod.py": "value = 1\n" });
    await using t = await startTestRun(dir.path, { resources: { languageServers: {} } });
    const client = await t.client();
    // The path is checked first, then a server is started for it (seconds), then the file is read.
    const answer = call(client, "lsp", { action: "hover", file: "mod.py", line: 1, symbol: SECRET });
    while (childCommandLines().every((line) => !line.includes("pyright"))) await Bun.sleep(5);
    rmSync(join(dir.path, "mod.py"));
    symlinkSync(join(outside.path, "secret.py"), join(dir.path, "mod.py"));
    const hovered = await answer;
    expect(hovered.isError).toBe(true);
    expect(hovered.text).toContain("it now resolves outside the workspace (a symlink out); not read");
    const server = t.run.resources.lsp!.supervisor.running()[0]!;
    expect(JSON.stringify([...server.client.documents.values()])).not.toContain(SECRET);
  }, 60_000);
});

/** Command lines of this process's children (the in-process sidecar's language servers). */
function childCommandLines(): string[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry) && Number(procStatFields(Number(entry))?.[1]) === process.pid)
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8");
      } catch {
        return ""; // exited meanwhile
      }
    });
}
