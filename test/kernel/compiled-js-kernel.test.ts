// The JavaScript kernel of the compiled (minified) binary: what a cell sees of the kernel's own
// classes is named as in the source. Drives `sidecar __kernel-js` over its protocol, behind the same
// fd shuffle the sidecar uses (src/kernel/launch.ts).
import { expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { tempDir } from "../helpers/temp-dir.ts";

const root = join(import.meta.dir, "../..");

test("ToolError, ToolDenied and KeyboardInterrupt keep their names in the compiled binary", async () => {
  await using out = await tempDir();
  execFileSync(process.execPath, ["compile.ts", "--target", "linux-x64", "--outdir", out.path], { cwd: root, timeout: 240_000, stdio: "pipe" });
  const cells = [
    "[ToolError.name, ToolDenied.name, new ToolDenied('no').constructor.name]",
    "let caught; try { throw new ToolError('bridge down') } catch (e) { caught = e.constructor.name } caught",
  ].map((code, i) => JSON.stringify({ type: "execute", id: i + 1, count: i + 1, code }));
  const kernel = spawnSync("sh", ["-c", 'exec 3<&0 4>&1 </dev/null 1>&2; exec "$@"', "sh", join(out.path, "sidecar-linux-x64"), "__kernel-js"], {
    input: `${cells.join("\n")}\n`,
    encoding: "utf8",
    timeout: 60_000,
  });
  const shown = kernel.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line))
    .filter((message) => message.type === "display")
    .map((message) => message.data["text/plain"]);
  expect(shown).toEqual(["[ 'ToolError', 'ToolDenied', 'ToolDenied' ]", '"ToolError"']);
}, 300_000);
