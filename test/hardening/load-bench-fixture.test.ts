// bench/load.ts sends lsp hover and definition calls at lines of this repository's own sources,
// found by their text. When a refactor renamed that text, the bench stopped at once with its own
// error and nobody saw it until the bench was next run; this keeps the fixture pointed at code that exists.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadKinds } from "../../bench/load-kinds.ts";

const REPO = join(import.meta.dir, "..", "..");

test("the load bench's lsp fixtures name lines that hold their symbols", async () => {
  const kinds = loadKinds(REPO);
  const seen: Array<{ file: string; line: number; symbol: string }> = [];
  const recorder = { callTool: async (call: { arguments: { file: string; line: number; symbol: string } }) => (seen.push(call.arguments), {}) };
  for (const kind of kinds.filter((k) => k.name.startsWith("lsp "))) await kind.call(recorder as never, 0, 0);
  expect(seen.length).toBe(2);
  for (const { file, line, symbol } of seen) expect(readFileSync(join(REPO, file), "utf8").split("\n")[line - 1]).toContain(symbol);
});
