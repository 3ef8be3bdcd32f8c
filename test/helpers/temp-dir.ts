// Temporary workspaces for tests: `await using dir = await tempDir()` removes it afterwards.
import { mkdtemp, realpath, rm, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface TempDir extends AsyncDisposable {
  path: string;
  /** Writes files given as {relative path: content}, creating folders. */
  write(files: Record<string, string>): Promise<void>;
}

export async function tempDir(prefix = "sidecar-test-"): Promise<TempDir> {
  const path = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  return {
    path,
    async write(files) {
      for (const [rel, content] of Object.entries(files)) {
        await mkdir(dirname(join(path, rel)), { recursive: true });
        await writeFile(join(path, rel), content);
      }
    },
    async [Symbol.asyncDispose]() {
      await rm(path, { recursive: true, force: true });
    },
  };
}
