// lsp diagnostics "*" on an untrusted checkout runs clang over compile_commands.json's entries. An
// entry may name any file and any directory: a cloned repository naming ~/.aws/credentials had
// clang parse it and its tokens come back in the error messages ("unknown type name 'aws_secret…'"),
// for any file clang takes as C (a .c or .h of another project, say).
// Untrusted, an entry whose file or directory lies outside the workspace is skipped, and the answer
// says so.
import { describe, expect, test } from "bun:test";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call } from "../helpers/call.ts";

const SECRET = "aws_secret_access_key_VALUE";

describe("compile_commands.json entries outside the workspace", () => {
  test("are not checked on an untrusted workspace: no token of the outside file comes back", async () => {
    await using outside = await tempDir("sidecar-outside-");
    await using dir = await tempDir();
    await outside.write({ "private.c": `${SECRET} key;\n` });
    await dir.write({
      "c/main.c": "int main(void) { return undefined_name; }\n",
      "c/compile_commands.json": JSON.stringify([
        { directory: ".", file: "main.c", arguments: ["cc", "-c", "main.c"] },
        { directory: outside.path, file: "private.c", arguments: ["cc", "-c", "private.c"] },
        { directory: ".", file: `${outside.path}/private.c`, arguments: ["cc", "-c", `${outside.path}/private.c`] },
      ]),
    });
    await using t = await startTestRun(dir.path, { resources: { languageServers: {} } });
    const client = await t.client("plan");
    const checked = await call(client, "lsp", { action: "diagnostics", file: "*" });
    expect(checked.isError).toBe(false);
    expect(JSON.stringify(checked)).not.toContain(SECRET);
    expect(checked.data.results).toEqual([{ path: "c/main.c", line: 1, severity: "error", source: "clang", message: "use of undeclared identifier 'undefined_name'" }]);
    expect(checked.text).toContain("2 entries naming a file or folder outside the workspace skipped");
  }, 120_000);
});
