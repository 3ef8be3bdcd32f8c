// `lsp status` through the MCP client: what this checkout uses leads, the servers with nothing here share one
// line that says how to list them, and `all: true` lists each; the data keeps every row either way.
import { describe, expect, test } from "bun:test";
import { call } from "../helpers/call.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

interface StatusRow {
  server: string;
  root: string | null;
  unrootedFile?: string;
}

describe("lsp status", () => {
  test("leads with the servers this checkout uses, files waiting for a root marker included, and groups the rest in one line", async () => {
    await using dir = await tempDir();
    // A Python project, and Go files with no go.mod: both are this checkout's business.
    await dir.write({ "pyproject.toml": "", "app.py": "x = 1\n", "cmd/main.go": "package main\n" });
    await using run = await startTestRun(dir.path, { resources: { languageServers: {} } });
    const client = await run.client();

    const grouped = await call(client, "lsp", { action: "status" });
    const rows = (grouped.data as { results: StatusRow[] }).results;
    const unused = rows.filter((row) => row.root === null && !row.unrootedFile).map((row) => row.server);
    expect(unused.length).toBeGreaterThan(25);
    const lines = grouped.text.split("\n");
    expect(lines[0]).toMatch(/^go\s+-\s+unavailable — cmd\/main\.go \(and any other \.go files\) not served: no root marker \(go\.mod, go\.work\) in its folder or above it\. Add one of them/);
    expect(lines[1]).toMatch(/^python\s+\.\s+/);
    expect(lines[2]).toBe(
      `Not used here (none of their root markers or files in the workspace): ${unused.length} of ${rows.length} servers: ${unused.join(", ")}. {"action": "status", "all": true} lists each with what it looks for.`,
    );
    for (const server of unused) expect(lines.some((line) => line.startsWith(`${server} `))).toBe(false);

    const all = await call(client, "lsp", { action: "status", all: true });
    const every = all.text.split("\n");
    for (const server of unused) expect(every.some((line) => line.startsWith(`${server} `) && line.includes("unavailable — "))).toBe(true);
    expect(all.text).not.toContain("Not used here");
    expect((all.data as { results: StatusRow[] }).results).toEqual(rows);
  }, 60_000);
});
