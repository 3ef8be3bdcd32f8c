// IPython idioms in the Python kernel, rewritten by IPython's transformer and by the fallback.
import { afterEach, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { tempDir } from "../helpers/temp-dir.ts";
import { KERNEL_TEST_TIMEOUT_MS, cell, kernelRun, SYSTEM_PYTHON } from "./helpers.ts";

afterEach(() => {
  delete process.env.SIDECAR_KERNEL_IPYTHON;
});

describe.each([
  ["IPython's TransformerManager", "1"],
  ["the fallback rewriter (IPython switched off)", "0"],
])("IPython idioms through %s", (_how, ipython) => {
  test("%cd, !cmd, x = !cmd with {expr}/$var expansion, %%bash, %timeit and %%timeit", async () => {
    process.env.SIDECAR_KERNEL_IPYTHON = ipython; // read by the kernel process at start
    await using dir = await tempDir();
    await dir.write({ "sub/a.txt": "A", "sub/b.txt": "B" });
    await using t = await kernelRun(dir.path);

    const cd = await cell(t.client, "%cd sub\nimport os\nos.getcwd()");
    expect(cd.isError).toBe(false);
    expect(cd.text).toContain(`Out[1]: '${join(dir.path, "sub")}'`);

    const bang = await cell(t.client, "word = 'hello'\n!echo {word.upper()} $word");
    expect(bang.text).toEndWith("\nHELLO hello");

    const captured = await cell(t.client, "files = !ls\nsorted(files)");
    expect(captured.text).toContain("Out[3]: ['a.txt', 'b.txt']");

    const bash = await cell(t.client, "%%bash\nfor f in *.txt; do echo \"file $f\"; done\necho $((6 * 7))");
    expect(bash.text).toEndWith("\nfile a.txt\nfile b.txt\n42");

    const timeit = await cell(t.client, "%timeit -n 5 -r 2 sum(range(100))");
    expect(timeit.text).toMatch(/per loop \(mean ± std\. dev\. of 2 runs, 5 loops each\)/);

    const cellTimeit = await cell(t.client, "%%timeit -n 3 -r 1\ntotal = 0\nfor i in range(10):\n    total += i");
    expect(cellTimeit.text).toMatch(/per loop \(mean ± std\. dev\. of 1 run, 3 loops each\)/);

    const unknown = await cell(t.client, "%prun sum(range(3))");
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain("%prun is not supported in this kernel; supported line magics: %pip, %cd");
  }, KERNEL_TEST_TIMEOUT_MS);

  test("notebook habits: %matplotlib, %load_ext autoreload, %autoreload, %who, %whos, %run, %time and %%time keep the value", async () => {
    process.env.SIDECAR_KERNEL_IPYTHON = ipython;
    await using dir = await tempDir();
    await dir.write({ "script.py": "import sys\nprint('script got', sys.argv[1:])\nran = 5\nif __name__ == '__main__':\n    main_ran = True\n" });
    await using t = await kernelRun(dir.path);

    // Harmless no-ops with a note; the rest of the cell runs (it was a NameError for the whole cell).
    const habits = await cell(t.client, "%matplotlib inline\n%load_ext autoreload\n%autoreload 2\nalpha = 3\nbeta = 'text'\nalpha + 1");
    expect(habits.isError).toBe(false);
    expect(habits.text).toContain("%matplotlib inline: nothing to do here; figures are returned as PNG images");
    expect(habits.text).toContain("%load_ext autoreload: not loaded (this kernel is not IPython)");
    expect(habits.text).toContain("%autoreload 2: modules are not reloaded automatically here");
    expect(habits.text).toContain("Out[1]: 4");

    const who = await cell(t.client, "%who");
    expect(who.text).toEndWith("\nalpha\tbeta");
    const whos = await cell(t.client, "%whos");
    expect(whos.text).toMatch(/Variable\s+Type\s+Data\/Info\n-+\nalpha\s+int\s+3\nbeta\s+str\s+'text'/);

    const run = await cell(t.client, "%run script.py first second\n(ran, main_ran)");
    expect(run.isError).toBe(false);
    expect(run.text).toContain("script got ['first', 'second']");
    expect(run.text).toContain("Out[4]: (5, True)");

    const timed = await cell(t.client, "%time sum(range(10))");
    expect(timed.text).toMatch(/Wall time: .+\nOut\[5\]: 45/);
    const cellTimed = await cell(t.client, "%%time\ntotal = sum(range(5))\ntotal * 2");
    expect(cellTimed.text).toMatch(/Wall time: .+\nOut\[6\]: 20/);
  }, KERNEL_TEST_TIMEOUT_MS);
});

/** A minimal wheel: a module that reports its version. pip installs it without any index. */
function buildWheel(directory: string, version: string): string {
  const name = `tinypkg-${version}-py3-none-any.whl`;
  const script = `
import zipfile, sys
path, version = sys.argv[1], sys.argv[2]
files = {
    "tinypkg/__init__.py": f"VERSION = {version!r}\\n",
    f"tinypkg-{version}.dist-info/METADATA": f"Metadata-Version: 2.1\\nName: tinypkg\\nVersion: {version}\\n",
    f"tinypkg-{version}.dist-info/WHEEL": "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
files[f"tinypkg-{version}.dist-info/RECORD"] = "".join(f"{n},,\\n" for n in files) + f"tinypkg-{version}.dist-info/RECORD,,\\n"
with zipfile.ZipFile(path, "w") as wheel:
    for n, text in files.items():
        wheel.writestr(n, text)
`;
  execFileSync(SYSTEM_PYTHON, ["-c", script, join(directory, name), version]);
  return join(directory, name);
}

describe("%pip", () => {
  test("installs into the kernel's venv from a local wheel and evicts the old modules", async () => {
    await using dir = await tempDir();
    // --without-pip keeps the test fast: Debian's pip, visible through the system site-packages,
    // installs into the venv it runs under (a venv is not "externally managed").
    execFileSync(SYSTEM_PYTHON, ["-m", "venv", "--system-site-packages", "--without-pip", join(dir.path, ".venv")], { stdio: "pipe" });
    const v1 = buildWheel(dir.path, "1.0");
    const v2 = buildWheel(dir.path, "2.0");
    // No python setting: the kernel picks the workdir's .venv by itself.
    await using t = await kernelRun(dir.path, { python: undefined });

    const first = await cell(t.client, `%pip install --no-index --quiet ${v1}\nimport sys, tinypkg, pandas\n(sys.prefix, tinypkg.VERSION)`);
    expect(first.isError).toBe(false);
    expect(first.text).toContain(`/.venv/bin/python (Python 3.`);
    expect(first.text).toContain(`Out[1]: ('${join(dir.path, ".venv")}', '1.0')`);

    const second = await cell(t.client, `%pip install --no-index --quiet ${v2}\nimport tinypkg\ntinypkg.VERSION`);
    expect(second.text).toContain("Evicted 1 module(s) from sys.modules (tinypkg)");
    expect(second.text).toContain("Out[2]: '2.0'");

    // Run through the shell, as IPython runs it: the pipe filters pip's output.
    const piped = await cell(t.client, "%pip list --format=freeze | grep -i tinypkg");
    expect(piped.text).toContain("tinypkg==2.0");
    expect(piped.text).not.toContain("pandas==");
  }, KERNEL_TEST_TIMEOUT_MS);

  test("Debian's system interpreter refuses, and the cell says so instead of pretending", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const refused = await cell(t.client, `%pip install --no-index ${buildWheel(dir.path, "1.0")}`);
    expect(refused.text).toContain("externally-managed-environment");
    expect(refused.text).toContain("pip exited with status 1");
  }, KERNEL_TEST_TIMEOUT_MS);
});

// Start-up counts (bench/eval.ts): the magics and HTML modules are compiled only when a cell needs them.
test("the magics shim and the HTML converter load on first use, and get_ipython() is one shim", async () => {
  await using dir = await tempDir();
  await using t = await kernelRun(dir.path);
  const loaded = "import sys\nsorted(name for name in sys.modules if name.startswith('sidecar_'))";
  expect((await cell(t.client, loaded)).text).toContain("Out[1]: ['sidecar_display']");
  const who = await cell(t.client, "x = 1\n%who");
  expect(who.text).toEndWith("\nsys\tx"); // the kernel's own names (get_ipython, tool…) left out
  expect((await cell(t.client, "get_ipython() is get_ipython()")).text).toContain("Out[3]: True");
  expect((await cell(t.client, loaded)).text).toContain("Out[4]: ['sidecar_display', 'sidecar_magics']");
}, KERNEL_TEST_TIMEOUT_MS);
