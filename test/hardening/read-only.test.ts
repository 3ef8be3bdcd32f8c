// A file marked read-only (0444) is never rewritten by a tool, though replacing it needs only the
// folder's write permission (and root may write anything): resolve refused it already; lsp_rename,
// which writes through the same writer, rewrote it.
import { describe, expect, test } from "bun:test";
import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call } from "../helpers/call.ts";

describe("lsp_rename across a read-only file", () => {
  test("is refused with the file's mode, and no file changes", async () => {
    await using dir = await tempDir();
    await dir.write({ "pyproject.toml": "", "a.py": "value = 1\n", "b.py": "from a import value\nprint(value)\n" });
    chmodSync(join(dir.path, "b.py"), 0o444);
    await using t = await startTestRun(dir.path, { resources: { languageServers: {} } });
    const client = await t.client();
    const renamed = await call(client, "lsp_rename", { file: "a.py", line: 1, symbol: "value", new_name: "amount" });
    expect(renamed.isError).toBe(true);
    expect(renamed.text).toContain("b.py failed (it is read-only for the sidecar's user (mode 0444)");
    expect(renamed.text).toContain("no file had been written yet, so nothing changed");
    expect(readFileSync(join(dir.path, "a.py"), "utf8")).toBe("value = 1\n");
    expect(readFileSync(join(dir.path, "b.py"), "utf8")).toBe("from a import value\nprint(value)\n");
  }, 180_000);
});
