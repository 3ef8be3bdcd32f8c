// The Python kernel against Debian's real interpreter: persistence, echo, rendering, death, no orphans.
import { describe, expect, test } from "bun:test";
import { tempDir } from "../helpers/temp-dir.ts";
import { join } from "node:path";
import { KERNEL_TEST_TIMEOUT_MS, cell, kernelRun, pngSize, untilExists } from "./helpers.ts";
import { survivors } from "../helpers/processes.ts";

describe("python cells keep state like a notebook", () => {
  test("state persists, the last expression is echoed, output keeps its order, reset starts clean", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const first = await cell(t.client, "import sys\nx = 41\nprint('one')\nprint('two', file=sys.stderr)\nprint('three')\nx + 1", {
      description: "set x and print three lines",
    });
    expect(first.isError).toBe(false);
    expect(first.text).toStartWith("set x and print three lines\n[python · In [1] · ok · ");
    expect(first.text).toContain("/usr/bin/python3 (Python 3.");
    expect(first.text).toContain("one\ntwo\nthree\nOut[1]: 42");
    expect(first.data).toMatchObject({ label: "set x and print three lines", status: "ok", execution_count: 1, language: "python" });

    const second = await cell(t.client, "x");
    expect(second.text).toContain("Out[2]: 41");
    const silent = await cell(t.client, "y = x * 2");
    expect(silent.text).not.toContain("Out[");

    const reset = await cell(t.client, "'x' in globals()", { reset: true });
    expect(reset.text).toContain("Out[1]: False");
    expect(reset.text).toContain("Reset: the previous python kernel");
  }, KERNEL_TEST_TIMEOUT_MS);

  test("a last expression ending with ; shows no Out, as in IPython", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const silenced = await cell(t.client, "x = 'é'\nlen(x);  # no Out");
    expect(silenced.text).not.toContain("Out[");
    expect((await cell(t.client, "len(x)")).text).toContain("Out[2]: 1");
  }, KERNEL_TEST_TIMEOUT_MS);

  test("display() shows values in order; tracebacks keep only the cell's own frames", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const shown = await cell(t.client, "class M:\n    def _repr_markdown_(self):\n        return '**bold**'\ndisplay(M())\nprint('after')\ndisplay([1, 2])");
    expect(shown.text).toContain("**bold**\nafter\n[1, 2]");

    const failed = await cell(t.client, "def inner():\n    raise ValueError('no such row')\n\ninner()");
    expect(failed.isError).toBe(true);
    expect(failed.data.status).toBe("error");
    expect(failed.text).toContain('File "<cell 2>", line 4, in <module>');
    expect(failed.text).toContain("raise ValueError('no such row')");
    expect(failed.text).toContain("ValueError: no such row");
    expect(failed.text).not.toContain('File "<string>"');

    // The caret under the cell's last line marks the failing expression, not one column right of it.
    const last = await cell(t.client, "x = {'a': 1}\nprint(1 + x['b'])");
    expect(last.text).toContain("    print(1 + x['b'])\n              ~^^^^^\nKeyError: 'b'");
  }, KERNEL_TEST_TIMEOUT_MS);

  test("HTML-only values read as markdown: tables stay tables, no <IPython.core.display.HTML object>", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const shown = await cell(
      t.client,
      [
        "from IPython.display import HTML",
        "display(HTML('<style>p {color: red}</style><h3>Report</h3><p>Rows with <b>errors</b>, see <a href=\"https://example.com/log\">the log</a>:</p><ul><li>first</li><li>second</li></ul>'))",
        "class Scores:",
        "    def _repr_html_(self):",
        "        return '<table><thead><tr><th>name</th><th>score</th></tr></thead><tbody><tr><td>ann</td><td>3</td></tr><tr><td>bob | jr</td><td>5</td></tr></tbody></table>'",
        "Scores()",
      ].join("\n"),
    );
    expect(shown.isError).toBe(false);
    expect(shown.text).not.toContain("IPython.core.display.HTML object");
    expect(shown.text).not.toContain("color: red");
    expect(shown.text).toContain("### Report\n\nRows with **errors**, see [the log](https://example.com/log):\n\n- first\n- second");
    expect(shown.text).toContain("| name | score |\n|---|---|\n| ann | 3 |\n| bob \\| jr | 5 |");

    // A styled DataFrame (its _repr_html_ is CSS and markup): the data as the table, the styles named as left out.
    const styled = await cell(t.client, "import pandas as pd\npd.DataFrame({'a': [1, 2]}).style.highlight_max()");
    expect(styled.text).toContain("|  | a |\n|---|---|\n| 0 | 1 |\n| 1 | 2 |\n\n2 rows × 1 columns (styled; the styles are not shown)");
  }, KERNEL_TEST_TIMEOUT_MS);

  test("output a background thread writes between cells is carried into the next answer", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    await cell(t.client, "import threading, time\ndef later():\n    time.sleep(0.3)\n    print('late news', flush=True)\n    open('printed', 'w').close()\nthreading.Thread(target=later).start()");
    await untilExists(join(dir.path, "printed"));
    const next = await cell(t.client, "'next'");
    expect(next.text).toContain("(written by background work since the last cell)\nlate news\nOut[2]: 'next'");

    // Past its bound only the tail is kept, and the answer says how much went before it.
    await cell(t.client, "def flood():\n    time.sleep(0.3)\n    print('y' * 20000, flush=True)\n    open('flooded', 'w').close()\nthreading.Thread(target=flood).start()");
    await untilExists(join(dir.path, "flooded"));
    const after = await cell(t.client, "'after'");
    expect(after.text).toContain("(written by background work since the last cell, its last 8000 characters; 12001 before them were dropped)\nyyy");

    // Not flushed: it waits in the kernel's outbox and may reach the sidecar after the next cell began.
    // It was written between cells all the same, and is reported so, whenever it arrives.
    await cell(t.client, "def quiet():\n    time.sleep(0.3)\n    print('unflushed news')\n    open('written', 'w').close()\nthreading.Thread(target=quiet).start()");
    await untilExists(join(dir.path, "written"));
    const later = await cell(t.client, "'later'");
    expect(later.text).toContain("(written by background work since the last cell)\nunflushed news\nOut[6]: 'later'");
  }, KERNEL_TEST_TIMEOUT_MS);

  test("a running cell reports progress, so a client's no-progress timeout does not cancel it", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const messages: string[] = [];
    const result = await t.client.callTool(
      { name: "eval", arguments: { code: "import time\ntime.sleep(6)\n'slept'", description: "a cell that sleeps six seconds" } },
      undefined,
      { onprogress: (p) => messages.push(p.message ?? ""), timeout: 5_500, resetTimeoutOnProgress: true },
    );
    expect((result.content as { text: string }[])[0]!.text).toContain("Out[1]: 'slept'");
    expect(messages).toContainEqual(expect.stringMatching(/^the python cell has run for [4-6] s$/));
  }, KERNEL_TEST_TIMEOUT_MS);

  test("a cell queued behind another says it is waiting, not that it has run", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const slow = cell(t.client, "import time\nopen('started', 'w').close()\ntime.sleep(12)\n'slow'");
    await untilExists(join(dir.path, "started"));
    const messages: string[] = [];
    const queued = await t.client.callTool(
      { name: "eval", arguments: { code: "'queued'", description: "a cell that waits its turn" } },
      undefined,
      { onprogress: (p) => messages.push(p.message ?? ""), timeout: 60_000 },
    );
    expect((queued.content as { text: string }[])[0]!.text).toContain("Out[2]: 'queued'");
    expect((await slow).text).toContain("Out[1]: 'slow'");
    // It waited about 11 s: the heartbeats said so, and none claimed the cell was running.
    expect(messages).toContainEqual(expect.stringMatching(/^the python cell is waiting for its turn \(\d+ s\)/));
    expect(messages.filter((message) => message.includes("has run for"))).toEqual([]);
  }, KERNEL_TEST_TIMEOUT_MS);

  test("a forked child's prints arrive once, and a multiprocessing pool's workers are heard", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const forked = await cell(t.client, "import os\nprint('before fork')\npid = os.fork()\nif pid == 0:\n    print('in child')\n    os._exit(0)\nos.waitpid(pid, 0)\nprint('after')");
    expect(forked.text).toEndWith("\nbefore fork\nin child\nafter");
    const pooled = await cell(t.client, "import multiprocessing as mp\ndef work(i):\n    print('worker', i)\n    return i * i\nwith mp.Pool(2) as pool:\n    squares = pool.map(work, range(4))\nsquares");
    for (const i of [0, 1, 2, 3]) expect(pooled.text).toContain(`worker ${i}\n`);
    expect(pooled.text).toContain("Out[2]: [0, 1, 4, 9]");
  }, KERNEL_TEST_TIMEOUT_MS);

  test("a character split between two byte writes stays whole, through sys.stdout.buffer and fd 1", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const split = await cell(
      t.client,
      "import os, sys, time\neuro = '€'.encode()\nsys.stdout.buffer.write(euro[:1]); sys.stdout.buffer.write(euro[1:] + b'\\n')\nsys.stdout.flush()\nos.write(1, euro[:2]); time.sleep(0.2); os.write(1, euro[2:] + b'\\n')",
    );
    expect(split.text).toEndWith("\n€\n€\nOut[1]: 2"); // what the last os.write returned
    expect(split.text).not.toContain("\uFFFD");
  }, KERNEL_TEST_TIMEOUT_MS);

  test("a C-level write and a subprocess cannot corrupt the protocol; their output is kept", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const result = await cell(t.client, 'import os, subprocess\nos.write(1, b\'{"type":"done","id":99}\\n\')\nsubprocess.run(["echo", "from a child"])\n"still here"');
    expect(result.isError).toBe(false);
    expect(result.text).toContain('{"type":"done","id":99}\nfrom a child\n');
    expect(result.text).toContain("Out[1]: 'still here'");
  }, KERNEL_TEST_TIMEOUT_MS);

  test("a flood of output is bounded to head and tail, and the answer says how much was cut", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const flood = await cell(t.client, "for i in range(20000):\n    print(f'line {i:05d} ' + 'x' * 40)");
    const total = 20000 * 52;
    expect(flood.isError).toBe(false);
    expect(flood.text).toContain("line 00000 ");
    expect(flood.text).toEndWith("line 19999 " + "x".repeat(40));
    const cut = flood.data.cut_bytes as number;
    expect(flood.text).toContain(`… ${cut} bytes cut …`);
    expect(Buffer.byteLength(flood.text)).toBeLessThan(50_000);
    expect(cut).toBeGreaterThan(total - 50_000);
  }, KERNEL_TEST_TIMEOUT_MS);

  test("a pandas DataFrame renders as a capped markdown table and a matplotlib figure as a PNG", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const frame = await cell(t.client, "import pandas as pd\npd.DataFrame({f'c{i}': range(50) for i in range(15)})");
    expect(frame.isError).toBe(false);
    expect(frame.text).toContain("|  | c0 | c1 |");
    expect(frame.text).toContain("| 19 | 19 | 19 |");
    expect(frame.text).not.toContain("| 20 | 20 |");
    expect(frame.text).toContain("50 rows × 15 columns (20 of 50 rows shown, 12 of 15 columns shown)");

    const figure = await cell(t.client, "import matplotlib.pyplot as plt\nplt.figure(figsize=(4, 3), dpi=100)\nplt.plot([1, 3, 2])\nplt.show()");
    expect(figure.isError).toBe(false);
    expect(figure.images).toHaveLength(1);
    expect(figure.images[0]!.mimeType).toBe("image/png");
    expect(pngSize(figure.images[0]!.data)).toEqual({ width: 400, height: 300 });
    expect(figure.text).toContain("[image 1: 400×300 PNG, attached below]");
    expect(figure.data.images).toBe(1);

    // plt.show() displays at once: two plots shown in one cell are two images, each with its title.
    const two = await cell(t.client, "for title in ('first', 'second'):\n    plt.figure(figsize=(2, 2), dpi=50)\n    plt.title(title)\n    plt.plot([1, 2])\n    print('showing', title)\n    plt.show()");
    expect(two.images).toHaveLength(2);
    expect(two.text).toMatch(/showing first\n\[image 1: [^\]]*\]\nshowing second\n\[image 2: /);

    // A figure drawn by a cell that then failed is shown with that error, not in the next cell.
    const failed = await cell(t.client, "plt.figure(figsize=(2, 2), dpi=50)\nplt.plot([3, 1])\n1 / 0");
    expect(failed.images).toHaveLength(1);
    expect((await cell(t.client, "'unrelated'")).images).toHaveLength(0);

    // IPython's Image answers _repr_png_ with base64 text, not bytes.
    const saved = await cell(t.client, "fig = plt.figure(figsize=(4, 3), dpi=100)\nplt.plot([1, 3, 2])\nfig.savefig('plot.png')\nplt.close(fig)\nfrom IPython.display import Image\nImage(filename='plot.png')");
    expect(saved.images).toHaveLength(1);
    expect(pngSize(saved.images[0]!.data)).toEqual({ width: 400, height: 300 });
  }, KERNEL_TEST_TIMEOUT_MS);
});

describe("a cancelled python call", () => {
  test("interrupts the cell with SIGINT and keeps the kernel's state", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    await cell(t.client, "kept = 'survives'");
    const controller = new AbortController();
    const call = t.client.callTool(
      { name: "eval", arguments: { code: "import time\nopen('started', 'w').close()\ntime.sleep(60)", description: "sleep until the call is cancelled" } },
      undefined,
      { signal: controller.signal, timeout: KERNEL_TEST_TIMEOUT_MS },
    );
    await untilExists(join(dir.path, "started"));
    controller.abort("the test cancels");
    await expect(call).rejects.toThrow();
    // The interrupt lands asynchronously; until it has, the next cell waits its turn.
    const after = await cell(t.client, "kept");
    expect(after.text).toContain("Out[3]: 'survives'");
  }, KERNEL_TEST_TIMEOUT_MS);
});

describe("a python kernel that dies", () => {
  test("os._exit in a cell: what it printed just before still arrives", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    const exited = await cell(t.client, "import os\nprint('last words')\nos._exit(3)");
    expect(exited.data.status).toBe("died");
    expect(exited.text).toContain("last words\n");
    expect(exited.text).toContain("exited with status 3");
  }, KERNEL_TEST_TIMEOUT_MS);

  test("killed mid-cell: the answer says the state was lost and the next call starts fresh", async () => {
    await using dir = await tempDir();
    await using t = await kernelRun(dir.path);
    await cell(t.client, "kept = 1");
    const died = await cell(t.client, "import os\nprint('going', flush=True)\nos.kill(os.getpid(), 9)");
    expect(died.isError).toBe(true);
    expect(died.data.status).toBe("died");
    expect(died.text).toContain("The python kernel died during this cell: it was killed by SIGKILL.");
    expect(died.text).toContain("state (variables, imports, loaded data) was lost");
    const fresh = await cell(t.client, "'kept' in globals()");
    expect(fresh.text).toContain("Out[1]: False");
  }, KERNEL_TEST_TIMEOUT_MS);

  test("dead between calls: its children go too, the next call says so, and closing the run leaves nothing", async () => {
    await using dir = await tempDir();
    const t = await kernelRun(dir.path);
    const first = await cell(t.client, "import os, subprocess\nchild = subprocess.Popen(['sleep', '300'])\nprint(os.getpid(), child.pid)");
    const [kernelPid, sleepPid] = first.text.split("\n").at(-1)!.split(" ").map(Number);
    expect([kernelPid, sleepPid].every((pid) => Number.isInteger(pid) && pid! > 1)).toBe(true);
    process.kill(kernelPid!, "SIGKILL");
    expect(await survivors([kernelPid!, sleepPid!])).toEqual([]);

    const next = await cell(t.client, "import os, subprocess\nprint(os.getpid(), subprocess.Popen(['sleep', '300']).pid)");
    expect(next.text).toContain("was killed by SIGKILL between calls, so its state (variables, imports, loaded data) was lost");
    const pids = next.text.split("\n").at(-1)!.split(" ").map(Number);
    expect(pids).toHaveLength(2);
    expect(pids.every((pid) => Number.isInteger(pid) && pid > 1)).toBe(true);
    await t[Symbol.asyncDispose]();
    expect(await survivors(pids)).toEqual([]);
  }, KERNEL_TEST_TIMEOUT_MS);
});
