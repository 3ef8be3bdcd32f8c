// Nothing wedges on a special file: a FIFO in the workdir named to a tool used to block the thread
// that opened it until a writer came (both of Bun's pool threads, after two such calls), and every
// later lsp and resolve call hung for the rest of the run. Each entry point that takes a path must
// refuse a FIFO at once with a sentence, and the run must still answer afterwards. A huge file wedges
// the same way: a 3 GB sparse file (one `truncate`, no disk space) took 40 s of the main thread and
// 3 GB of memory to read, so it is refused before it is read.
import { describe, expect, test } from "bun:test";
import { constants, closeSync, openSync, rmSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call } from "../helpers/call.ts";

/** How long an entry point may take to refuse: a refusal is immediate; a blocked open never answers. */
const REFUSAL_BOUND_MS = 10_000;
/** How long a call on a regular file may take afterwards: pyright starts and checks the project first. */
const ANSWER_BOUND_MS = 110_000;

interface Answer {
  text: string;
  isError: boolean;
}

/** The answer, or a note that none came within `boundMs`. */
async function within(answer: Promise<Answer>, boundMs = REFUSAL_BOUND_MS): Promise<Answer> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<Answer>((resolve) => {
    timer = setTimeout(() => resolve({ text: `no answer within ${boundMs / 1000} s`, isError: true }), boundMs);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

function mkfifo(path: string): void {
  expect(Bun.spawnSync(["mkfifo", path]).exitCode).toBe(0);
}

/** Opens each FIFO for writing and closes it: a reader blocked in open() gets end of file and its thread back. */
function releaseReaders(paths: readonly string[]): void {
  for (const path of paths) {
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // ENXIO: nobody is reading it, nothing to release
    }
  }
}

async function afterWrite(t: TestRun, paths: string[]): Promise<Answer> {
  const response = await t.fetch("/harness/after-write", {
    method: "POST",
    headers: { Authorization: `Bearer ${t.run.surfaces.default}`, "Content-Type": "application/json" },
    body: JSON.stringify({ paths }),
  });
  const body = (await response.json()) as { text: string; files: { status: string; reason?: string }[] };
  return { text: `${body.text} ${body.files.map((f) => `${f.status}: ${f.reason ?? ""}`).join("; ")}`, isError: body.files.some((f) => f.status !== "fresh") };
}

describe("a FIFO named to a tool", () => {
  test("every entry point refuses it at once with a sentence, and the run still answers afterwards", async () => {
    await using dir = await tempDir();
    // pyright reads every .py file it finds, and a FIFO would block the server itself: it is told
    // to leave fifos/ alone, so what is tested is the sidecar, not the server.
    await dir.write({ "pyproject.toml": '[tool.pyright]\nexclude = ["fifos"]\n', "ok.py": "value = 1\nprint(value)\n", "sub/inner.py": "x = 1\n", "fifos/staged.py": "y = 1\n" });
    await using t = await startTestRun(dir.path, { conversation: "special-files", resources: { parser: {}, languageServers: {}, debugAdapters: {} } });
    const client = await t.client();
    // A staged file that becomes a FIFO before accept: resolve reads it to check it did not change.
    const staged = await call(client, "ast_edit", { pattern: "y = 1", rewrite: "y = 2", path: "fifos/staged.py", language: "python" });
    expect(staged.isError).toBe(false);
    rmSync(join(dir.path, "fifos/staged.py"));
    const fifos = ["fifos/pipe.py", "fifos/other.py", ".gitignore", "fifos/staged.py"].map((name) => join(dir.path, name));
    for (const path of fifos) mkfifo(path);
    const FIFO_REFUSED = /FIFO \(named pipe\), not a regular file/;
    /** Each entry point, how it is called, and what its refusal says. */
    const entryPoints: [string, () => Promise<Answer>, RegExp][] = [
      ["lsp hover", () => call(client, "lsp", { action: "hover", file: "fifos/pipe.py", line: 1, symbol: "x" }), FIFO_REFUSED],
      ["lsp diagnostics", () => call(client, "lsp", { action: "diagnostics", file: "fifos/other.py" }), FIFO_REFUSED],
      ["/harness/after-write", () => afterWrite(t, ["fifos/pipe.py", "fifos/other.py"]), FIFO_REFUSED],
      ["debug launch", () => call(client, "debug", { operation: "launch", program: "fifos/pipe.py" }), FIFO_REFUSED],
      ["resolve accept", () => call(client, "resolve", { edit_id: staged.data.edit_id, action: "accept" }), /changed since it was staged \(fifos\/staged\.py\)/],
      ["ast_grep below a FIFO .gitignore", () => call(client, "ast_grep", { pattern: "x = 1", path: "sub", language: "python" }), /sub\/inner\.py:1/],
    ];
    const failures: string[] = [];
    try {
      for (const [name, enter, expected] of entryPoints) {
        const answer = await within(enter());
        if (!expected.test(answer.text)) failures.push(`${name}: ${answer.text.slice(0, 300)}`);
      }
      // The pool threads are free: a query and a write still work.
      const hover = await within(call(client, "lsp", { action: "hover", file: "ok.py", line: 1, symbol: "value" }), ANSWER_BOUND_MS);
      if (hover.isError) failures.push(`lsp hover on a regular file afterwards: ${hover.text.slice(0, 200)}`);
      const edit = await within(call(client, "ast_edit", { pattern: "value = 1", rewrite: "value = 2", path: "ok.py", language: "python" }), ANSWER_BOUND_MS);
      const editId = (edit as Partial<Awaited<ReturnType<typeof call>>>).data?.edit_id;
      const accepted = edit.isError ? edit : await within(call(client, "resolve", { edit_id: editId, action: "accept" }), ANSWER_BOUND_MS);
      if (accepted.isError) failures.push(`ast_edit + resolve on a regular file afterwards: ${accepted.text.slice(0, 200)}`);
    } finally {
      releaseReaders(fifos);
    }
    expect(failures).toEqual([]);
  }, 6 * REFUSAL_BOUND_MS + 3 * ANSWER_BOUND_MS + 30_000);

  // The project check reads compile_commands.json on the main thread: a FIFO there held every call.
  test("lsp diagnostics \"*\" with a FIFO compile_commands.json says it cannot read it, and the run answers", async () => {
    await using dir = await tempDir();
    await dir.write({ "c/main.c": "int main(void) { return 0; }\n" });
    const fifo = join(dir.path, "c/compile_commands.json");
    mkfifo(fifo);
    await using t = await startTestRun(dir.path, { resources: { parser: {}, languageServers: {} } });
    const client = await t.client();
    try {
      const checked = await within(call(client, "lsp", { action: "diagnostics", file: "*" }), ANSWER_BOUND_MS);
      expect(checked.text).toContain("cannot read compile_commands.json in the root: it is a FIFO (named pipe), not a regular file");
      const found = await within(call(client, "ast_grep", { pattern: "return 0", path: "c", language: "c" }));
      expect(found.text).toContain("c/main.c:1");
    } finally {
      releaseReaders([fifo]);
    }
  }, 2 * ANSWER_BOUND_MS);
});

describe("a huge file (3 GB, sparse) named to a tool", () => {
  test("every entry point refuses it at once with its size, and the run still answers afterwards", async () => {
    await using dir = await tempDir();
    // pyright would read the huge files itself: it is told to leave huge/ alone (the sidecar is tested, not the server).
    await dir.write({
      "pyproject.toml": '[tool.pyright]\nexclude = ["huge", "c"]\n',
      "ok.py": "value = 1\nprint(value)\n",
      "sub/inner.py": "x = 1\n",
      "huge/staged.py": "y = 1\n",
      "c/main.c": "int main(void) { return 0; }\n",
      "huge/big.py": "",
      "huge/other.py": "",
      ".gitignore": "",
      "c/compile_commands.json": "",
    });
    await using t = await startTestRun(dir.path, { conversation: "huge-files", resources: { parser: {}, languageServers: {}, debugAdapters: {} } });
    const client = await t.client();
    // A staged file that grows to 3 GB before accept: resolve reads it to check it did not change.
    const staged = await call(client, "ast_edit", { pattern: "y = 1", rewrite: "y = 2", path: "huge/staged.py", language: "python" });
    expect(staged.isError).toBe(false);
    for (const name of ["huge/big.py", "huge/other.py", ".gitignore", "huge/staged.py", "c/compile_commands.json"]) truncateSync(join(dir.path, name), 3 * 1024 ** 3);
    const TOO_LARGE = /it is 3\.0 GB, more than the 64 MB a tool reads of one file, so it was not read/;
    const entryPoints: [string, () => Promise<Answer>, RegExp][] = [
      ["lsp hover", () => call(client, "lsp", { action: "hover", file: "huge/big.py", line: 1, symbol: "x" }), TOO_LARGE],
      ["lsp diagnostics", () => call(client, "lsp", { action: "diagnostics", file: "huge/other.py" }), TOO_LARGE],
      ["/harness/after-write", () => afterWrite(t, ["huge/big.py"]), TOO_LARGE],
      ["resolve accept", () => call(client, "resolve", { edit_id: staged.data.edit_id, action: "accept" }), /changed since it was staged \(huge\/staged\.py\)/],
      ["ast_grep below a huge .gitignore", () => call(client, "ast_grep", { pattern: "x = 1", path: "sub", language: "python" }), /sub\/inner\.py:1/],
      ["lsp diagnostics \"*\" with a huge compile_commands.json", () => call(client, "lsp", { action: "diagnostics", file: "*" }), /cannot read compile_commands\.json in the root: it is 3\.0 GB/],
    ];
    const failures: string[] = [];
    for (const [name, enter, expected] of entryPoints) {
      const answer = await within(enter(), name.startsWith("lsp") ? ANSWER_BOUND_MS : REFUSAL_BOUND_MS); // an lsp call starts its server first
      if (!expected.test(answer.text)) failures.push(`${name}: ${answer.text.slice(0, 300)}`);
    }
    const hover = await within(call(client, "lsp", { action: "hover", file: "ok.py", line: 1, symbol: "value" }), ANSWER_BOUND_MS);
    if (hover.isError) failures.push(`lsp hover on a regular file afterwards: ${hover.text.slice(0, 200)}`);
    expect(failures).toEqual([]);
  }, 2 * REFUSAL_BOUND_MS + 5 * ANSWER_BOUND_MS + 30_000);
});
