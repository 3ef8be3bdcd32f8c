// One real linux-x64 release build (binary, archive, SHA256SUMS) of this checkout, shared by the
// release tests that run in one `bun test` process: compiling takes 10-20 s.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isAlive } from "../helpers/processes.ts";

export const BUILD_TIMEOUT_MS = 240_000;
const root = join(import.meta.dir, "..", "..");
let built: Promise<string> | undefined;

/** The folder holding sidecar-linux-x64, sidecar-linux-x64.tar.gz and SHA256SUMS. */
export function releaseBuild(): Promise<string> {
  built ??= new Promise((resolve, reject) => {
    removeBuildsOfEndedRuns();
    const out = mkdtempSync(join(tmpdir(), `sidecar-release-${process.pid}-`));
    process.once("exit", () => rmSync(out, { recursive: true, force: true }));
    execFile(process.execPath, ["compile.ts", "--target", "linux-x64", "--outdir", out], { cwd: root, timeout: BUILD_TIMEOUT_MS }, (error, _stdout, stderr) =>
      error ? reject(new Error(`bun compile.ts failed: ${stderr}`)) : resolve(out),
    );
  });
  return built;
}

/**
 * `bun test` ends without an "exit" event, so each run left its build (185 MB) in the temp folder.
 * Each build is named by the pid of the run that made it: one whose run has ended is removed here.
 */
function removeBuildsOfEndedRuns(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(/^sidecar-release-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || isAlive(pid)) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}
