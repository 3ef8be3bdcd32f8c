// What writing through held folders costs: writeFilesAtomically with folders held by handle (Linux)
// and checked by path (elsewhere), against the reference, a bare temp file + rename by path per file
// with no check at all, in the same run. Files sit three folders below the workdir, as in a project.
// Usage: bun bench/atomic-write.ts [ROUNDS=200]
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { writeFilesAtomically, type FileChange } from "../src/workspace/atomic-write.ts";
import { writeFolders } from "../src/workspace/write-folders.ts";
import { median, ms } from "./stats.ts";
import { countArg } from "./args.ts";

const ROUNDS = countArg(2, "ROUNDS", 200, "bun bench/atomic-write.ts [ROUNDS=200]");
const root = realpathSync(mkdtempSync(join(tmpdir(), "sidecar-bench-write-")));
const CONTENT = "export const value = 1;\n".repeat(200); // about 5 KB, a typical source file

/** The reference: what the writer did before any check, one temp file and one rename per file. */
async function bareWrite(changes: readonly FileChange[]): Promise<void> {
  for (const change of changes) {
    await mkdir(dirname(change.path), { recursive: true });
    const temp = `${change.path}.tmp`;
    await writeFile(temp, change.content);
    await rename(temp, change.path);
  }
}

const ways: Record<string, (changes: readonly FileChange[]) => Promise<unknown>> = {
  "bare temp + rename (reference)": bareWrite,
  "held by handle (Linux)": (changes) => writeFilesAtomically(changes, [], writeFolders()),
  "checked by path (elsewhere)": (changes) => writeFilesAtomically(changes, [], writeFolders(undefined)),
};

console.log(`${ROUNDS} rounds per size, ways interleaved; median wall time per write call`);
for (const files of [1, 10, 50]) {
  const changes = Array.from({ length: files }, (_, k) => ({ path: join(root, "src", "pkg", `mod${k % 5}`, `file${k}.ts`), content: CONTENT }));
  await bareWrite(changes); // the files and folders exist: a rewrite, as resolve and lsp_rename do
  const times = new Map<string, number[]>(Object.keys(ways).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, write] of Object.entries(ways)) {
      const started = performance.now();
      await write(changes);
      times.get(name)!.push(performance.now() - started);
    }
  }
  const reference = median(times.get("bare temp + rename (reference)")!);
  console.log(`  ${files} file(s):`);
  for (const [name, samples] of times) console.log(`    ${name.padEnd(32)} ${ms(median(samples)).padStart(9)}  ×${(median(samples) / reference).toFixed(2)}`);
}
rmSync(root, { recursive: true, force: true });
