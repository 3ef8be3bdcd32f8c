// docs/clients.md over HTTP: the MCP Inspector's CLI line, run as written (the port and the token
// from the environment being this run's), lists the tools; with tools/call it calls one.
import { describe, expect, test } from "bun:test";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const ROOT = join(import.meta.dir, "..", "..");
const page = readFileSync(join(ROOT, "docs", "clients.md"), "utf8");
const URL_ON_PAGE = "http://127.0.0.1:7777/mcp";
/** The Inspector boots in seconds; on a loaded machine much longer. */
const SPAWNED_TEST_MS = 120_000;

/** The first fenced block of a language under a `## heading`. */
function block(heading: string, language: string): string {
  const section = page.split(/^## /m).find((s) => s.startsWith(`${heading}\n`));
  if (!section) throw new Error(`docs/clients.md has no section ## ${heading}`);
  const found = new RegExp("```" + language + "\\n([\\s\\S]*?)```").exec(section);
  if (!found) throw new Error(`docs/clients.md's ${heading} has no ${language} block`);
  return found[1]!.trim();
}

function shell(line: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile("sh", ["-c", line], { cwd: ROOT, env, timeout: SPAWNED_TEST_MS - 10_000 }, (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out))),
  );
}

describe("docs/clients.md over HTTP", () => {
  test(
    "the Inspector's CLI line lists the tools with the token from SIDECAR_TOKEN; with tools/call it calls one",
    async () => {
      await using dir = await tempDir();
      await using t = await startTestRun(dir.path, { resources: { parser: {} } });
      const line = block("The MCP Inspector's CLI", "sh");
      expect(line).toContain(URL_ON_PAGE);
      const here = line.replace(URL_ON_PAGE, t.run.url);
      // From the checkout, npx runs the Inspector its devDependencies pinned.
      const env = { ...process.env, SIDECAR_TOKEN: t.run.surfaces.default! };
      const listed = JSON.parse(await shell(here, env)) as { tools: { name: string }[] };
      expect(listed.tools.map((tool) => tool.name).sort()).toEqual(["ast_edit", "ast_grep", "resolve"]);
      // The call the page gives in place of --method tools/list.
      const method = /`(--method tools\/call [^`]+)`/.exec(page.slice(page.indexOf("## The MCP Inspector's CLI")))![1]!;
      await Bun.write(join(dir.path, "app.py"), "print('hi')\n");
      const called = JSON.parse(await shell(here.replace("--method tools/list", method), env)) as { isError?: boolean; content: { text: string }[] };
      expect(called.isError).toBeFalsy();
      expect(called.content[0]!.text).toContain("app.py:1");
      // A wrong token is refused in words the Inspector shows.
      await expect(shell(here, { ...env, SIDECAR_TOKEN: "wrong" })).rejects.toThrow("Unauthorized");
    },
    SPAWNED_TEST_MS,
  );
});
