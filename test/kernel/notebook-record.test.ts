// What the kernels ran is kept as notebooks in <stateDir>/kernels/, valid for Jupyter (checked with nbformat).
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/temp-dir.ts";
import { KERNEL_TEST_TIMEOUT_MS, SYSTEM_PYTHON, cell, kernelRun } from "./helpers.ts";

/** nbformat's own validation (python3-nbformat, with IPython); prints the cell types and output types. */
function validated(path: string): string {
  const script = "import nbformat, sys\nnb = nbformat.read(sys.argv[1], as_version=4)\nnbformat.validate(nbformat.read(sys.argv[1], as_version=nbformat.NO_CONVERT))\nfor c in nb.cells:\n    print(c.cell_type, [o.output_type for o in c.get('outputs', [])])";
  return execFileSync(SYSTEM_PYTHON, ["-c", script, path], { encoding: "utf8" });
}

describe("the notebook record", () => {
  test("every cell's code, status and outputs, images included, in a notebook nbformat accepts; a later run appends", async () => {
    await using dir = await tempDir();
    const stateDir = join(dir.path, ".state");
    {
      await using t = await kernelRun(dir.path, {}, { stateDir });
      await cell(t.client, "print('hello')\n40 + 2");
      await cell(t.client, "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()");
      await cell(t.client, "{}['missing']");
      await cell(t.client, "x = 1", { reset: true });
      await cell(t.client, "console.log('from js'); 6 * 7", { language: "javascript" });
    }
    const python = join(stateDir, "kernels", "python.ipynb");
    expect(validated(python)).toBe(
      "code ['stream', 'execute_result']\ncode ['display_data']\ncode ['error']\nmarkdown []\ncode []\n",
    );
    const notebook = JSON.parse(readFileSync(python, "utf8"));
    expect(notebook.metadata.kernelspec.name).toBe("python3");
    expect(notebook.cells[0]).toMatchObject({ source: "print('hello')\n40 + 2", execution_count: 1, metadata: { sidecar: { status: "ok" } } });
    expect(notebook.cells[0].outputs[1].data["text/plain"]).toBe("42");
    expect(notebook.cells[1].outputs[0].data["image/png"]).toMatch(/^iVBORw0KGgo/);
    expect(notebook.cells[2]).toMatchObject({ metadata: { sidecar: { status: "error" } }, outputs: [{ ename: "KeyError", evalue: "'missing'" }] });
    expect(notebook.cells[3].source).toContain("reset");
    expect(validated(join(stateDir, "kernels", "javascript.ipynb"))).toBe("code ['stream', 'execute_result']\n");

    // A later run with the same stateDir adds to the notebook; it does not start it again.
    {
      await using t = await kernelRun(dir.path, {}, { stateDir });
      await cell(t.client, "'again'");
    }
    expect(JSON.parse(readFileSync(python, "utf8")).cells.map((c: { source: string }) => c.source).at(-1)).toBe("'again'");
    expect(validated(python).split("\n").filter(Boolean)).toHaveLength(6);
  }, KERNEL_TEST_TIMEOUT_MS);

  test("a record that is not a notebook is moved aside, and a symlink is never written through", async () => {
    await using dir = await tempDir();
    const stateDir = join(dir.path, ".state");
    await dir.write({ ".state/kernels/python.ipynb": "not json", "outside.txt": "keep me" });
    symlinkSync(join(dir.path, "outside.txt"), join(stateDir, "kernels", "javascript.ipynb"));
    await using t = await kernelRun(dir.path, {}, { stateDir });
    expect((await cell(t.client, "1")).isError).toBe(false);
    expect(validated(join(stateDir, "kernels", "python.ipynb"))).toBe("code ['execute_result']\n");
    // The cell runs; the record is not written through the link.
    expect((await cell(t.client, "2", { language: "javascript" })).isError).toBe(false);
    expect(readFileSync(join(dir.path, "outside.txt"), "utf8")).toBe("keep me");
    // The other language's record goes on.
    await cell(t.client, "3");
    expect(validated(join(stateDir, "kernels", "python.ipynb"))).toBe("code ['execute_result']\ncode ['execute_result']\n");
  }, KERNEL_TEST_TIMEOUT_MS);
});
