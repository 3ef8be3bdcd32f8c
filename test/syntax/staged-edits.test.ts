// The staged-edit store on its own: what it holds is bounded, and an edit being accepted is left alone.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { contentHash, StagedEdits, type StagedFile } from "../../src/syntax/staged-edits.ts";
import { tempDir } from "../helpers/temp-dir.ts";

/**
 * A staged rewrite of `rel` (whose content is `before`) to `updated`. `root` is a tempDir path, real
 * already, as the store's root must be.
 */
function staged(root: string, rel: string, before: string, updated: string): StagedFile[] {
  return [{ path: join(root, rel), rel, hash: contentHash(before), updated, replacements: 1 }];
}

const noNotes = async () => [];

describe("staged content is bounded", () => {
  test("past the bound the oldest staged edits expire, and resolving one says so", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.ts": "a", "b.ts": "b", "c.ts": "c" });
    const root = dir.path;
    const edits = new StagedEdits(root, 25);
    const first = edits.stage(staged(root, "a.ts", "a", "x".repeat(10)), "default");
    const second = edits.stage(staged(root, "b.ts", "b", "y".repeat(10)), "default");
    // 30 characters staged against a bound of 25: the oldest goes, the newer two stay.
    const third = edits.stage(staged(root, "c.ts", "c", "z".repeat(10)), "default");
    await expect(edits.accept(first, "default", noNotes)).rejects.toThrow(/Edit edit_1 expired: edits staged after it needed the room .* Nothing was written\. Run ast_edit again/);
    expect(readFileSync(join(root, "a.ts"), "utf8")).toBe("a");
    await edits.accept(second, "default", noNotes);
    expect(edits.discard(third, "default")).toEqual([]);
    expect(readFileSync(join(root, "b.ts"), "utf8")).toBe("y".repeat(10));
  });

  test("an edit larger than the bound on its own is still staged (everything older goes)", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.ts": "a", "b.ts": "b" });
    const root = dir.path;
    const edits = new StagedEdits(root, 5);
    const small = edits.stage(staged(root, "a.ts", "a", "x"), "default");
    const large = edits.stage(staged(root, "b.ts", "b", "y".repeat(50)), "default");
    expect(() => edits.discard(small, "default")).toThrow(/expired/);
    await edits.accept(large, "default", noNotes);
    expect(readFileSync(join(root, "b.ts"), "utf8")).toBe("y".repeat(50));
  });

  test("an edit being accepted neither expires nor can be accepted twice", async () => {
    await using dir = await tempDir();
    await dir.write({ "a.ts": "a", "b.ts": "b" });
    const root = dir.path;
    const edits = new StagedEdits(root, 15);
    const first = edits.stage(staged(root, "a.ts", "a", "x".repeat(10)), "default");
    const accepting = edits.accept(first, "default", noNotes);
    // Both arrive while the accept is still reading the files back.
    edits.stage(staged(root, "b.ts", "b", "y".repeat(10)), "default");
    await expect(edits.accept(first, "default", noNotes)).rejects.toThrow("Edit edit_1 is being accepted by another call");
    const accepted = await accepting;
    expect(accepted.files.map((f) => f.rel)).toEqual(["a.ts"]);
    expect(readFileSync(join(root, "a.ts"), "utf8")).toBe("x".repeat(10));
  });
});
