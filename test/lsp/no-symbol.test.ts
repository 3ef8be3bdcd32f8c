// A name in a comment or a string is no symbol: an empty answer there is an error that says so and
// names where the name is code, never "No references found" (ky's KyError on a doc-comment line).
import { describe, expect, test } from "bun:test";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call, LSP_CONFIG, requireBinary } from "./fixtures.ts";

const ERRORS = [
  "/** Thrown as a KyError when the request fails. */",
  "export class KyError extends Error {}",
  "export const label = 'KyError';",
  "export interface Lonely {",
  "  size: number;",
  "}",
  "export function fail(): never {",
  "  throw new KyError();",
  "}",
  "",
].join("\n");

describe("a name where the server knows no symbol", () => {
  test("TypeScript: in a doc comment and in a string it is an error naming the lines where it is code; a real symbol with none found stays 'none found'", async () => {
    requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
    await using dir = await tempDir();
    await dir.write({
      "package.json": JSON.stringify({ name: "fixture", private: true }),
      "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, target: "es2022", noEmit: true }, include: ["src"] }),
      "src/errors.ts": ERRORS,
    });
    await using t = await startTestRun(dir.path, LSP_CONFIG);
    const client = await t.client();
    const comment = await call(client, "lsp", { action: "references", file: "src/errors.ts", line: 1, symbol: "KyError" });
    expect(comment.isError).toBe(true);
    expect(comment.text).toContain("The typescript server knows no symbol at KyError on line 1");
    expect(comment.text).toContain('It also occurs on lines 2 ("export class KyError extends Error {}"), 3');
    const string = await call(client, "lsp", { action: "implementation", file: "src/errors.ts", line: 3, symbol: "KyError" });
    expect(string.isError).toBe(true);
    expect(string.text).toContain("knows no symbol at KyError on line 3");
    // An interface nothing implements: the server knows it (hover), so none found is the answer.
    const lonely = await call(client, "lsp", { action: "implementation", file: "src/errors.ts", line: 4, symbol: "Lonely" });
    expect(lonely.isError).toBe(false);
    expect(lonely.text).toBe("No implementation found for Lonely on line 4.");
    const real = await call(client, "lsp", { action: "references", file: "src/errors.ts", line: 2, symbol: "KyError" });
    expect(real.data.total).toBe(2);
  }, 240_000);
});
