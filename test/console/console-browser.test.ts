// The run console in a real Chromium: the calls of a real run listed live, filtered and opened to
// their arguments and answers; the run's resources; one-click permission cards with a countdown.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Page } from "playwright-core";
import { launchBrowser, type TestBrowser } from "../helpers/browser.ts";
import { startQuestionPort } from "../helpers/question-port.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";
import { requireSystemPython, SYSTEM_PYTHON } from "../kernel/helpers.ts";

/** Screenshots land here (gitignored) for a person to look at; docs/images holds copies. */
const ARTIFACTS = join(import.meta.dir, "..", "..", "test-artifacts");
/** Chromium, a Python kernel and tree-sitter on a loaded 2-core machine. */
const SLOW_MS = 120_000;
/** The resources panel is re-sent every 5 s; a few rounds under load. */
const GLANCE_WAIT_MS = 30_000;

let browser: TestBrowser;
let dir: TempDir;
let state: TempDir;
let t: TestRun;
let agent: Client;
let planner: Client;
let page: Page;

beforeAll(async () => {
  requireSystemPython();
  browser = await launchBrowser();
  dir = await tempDir();
  state = await tempDir();
  await dir.write({ "app.py": "print(1)\nprint(2)\n", "lib/util.py": "def total(xs):\n    return sum(xs)\n" });
  t = await startTestRun(dir.path, {
    stateDir: state.path,
    surfaces: { plan: { tiers: ["read"] } },
    resources: { questions: { space: "local" }, parser: {}, kernels: { python: SYSTEM_PYTHON } },
  });
  agent = await t.client();
  planner = await t.client("plan");
  await mkdir(ARTIFACTS, { recursive: true });
  page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(t.run.page!);
  await page.getByRole("status").filter({ hasText: "Connected" }).waitFor();
}, SLOW_MS);

afterAll(async () => {
  await t?.[Symbol.asyncDispose]();
  await dir?.[Symbol.asyncDispose]();
  await state?.[Symbol.asyncDispose]();
  await browser?.[Symbol.asyncDispose]();
});

/** Waits until `read` gives `expected` (bun:test has no expect.poll); fails with the last value seen. */
async function until(read: () => Promise<number>, expected: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = await read();
  while (seen !== expected && Date.now() < deadline) {
    await Bun.sleep(50);
    seen = await read();
  }
  expect(seen).toBe(expected);
}

const calls = () => page.getByRole("list", { name: "Tool calls, newest first" }).getByRole("listitem");
const callItem = (text: string) => calls().filter({ hasText: text });

describe("the run console in Chromium", () => {
  test(
    "each call appears as it ends, newest first, and opens to its arguments and its answer",
    async () => {
      await page.getByText("No tool call yet").waitFor();
      const found = await agent.callTool({ name: "ast_grep", arguments: { pattern: "print($A)", path: "app.py" } });
      expect(found.isError).toBeFalsy();
      await callItem("ast_grep").waitFor();
      const edit = await agent.callTool({ name: "ast_edit", arguments: { pattern: "print($A)", rewrite: "log($A)", path: "app.py" } });
      expect(edit.isError).toBeFalsy();
      const failed = await agent.callTool({ name: "ast_grep", arguments: { pattern: "print($A)", language: "klingon" } });
      expect(failed.isError).toBe(true);
      const cell = await agent.callTool({ name: "eval", arguments: { code: "sum(range(10))", language: "python", description: "Add up 0 to 9" } });
      expect(cell.isError, JSON.stringify(cell.content)).toBeFalsy();
      await planner.callTool({ name: "ast_grep", arguments: { pattern: "sum($X)", path: "lib" } });

      await until(() => calls().count(), 5);
      // Newest first: the planner's search, then the cell, the failure, the edit, the first search.
      const order = await calls().locator(".tool").allTextContents();
      expect(order).toEqual(["ast_grep", "eval", "ast_grep", "ast_edit", "ast_grep"]);
      const failure = callItem("klingon");
      await expect(failure.locator(".result").textContent()).resolves.toBe("failed (unknown_language)");

      // The edit opens to its arguments and its diff, coloured line by line.
      const editItem = callItem("ast_edit");
      await editItem.locator("summary").click();
      await editItem.getByRole("heading", { name: "Arguments" }).waitFor();
      await expect(editItem.locator("pre").first().textContent()).resolves.toContain('"rewrite": "log($A)"');
      await expect(editItem.locator("pre .del").first().textContent()).resolves.toBe("-print(1)");
      await expect(editItem.locator("pre .add").first().textContent()).resolves.toBe("+log(1)");

      // The cell opens to its code and what it printed.
      const cellItem = callItem("eval");
      await cellItem.locator("summary").click();
      await cellItem.getByRole("heading", { name: "Answer" }).waitFor();
      await expect(cellItem.locator("pre").first().textContent()).resolves.toContain('"code": "sum(range(10))"');
      await expect(cellItem.locator("pre").nth(1).textContent()).resolves.toContain("45");

      // A call ending while another is open leaves the open one open.
      await agent.callTool({ name: "ast_grep", arguments: { pattern: "def $F($$$A): $$$B", path: "lib" } });
      await until(() => calls().count(), 6);
      expect(await cellItem.locator("details").getAttribute("open")).not.toBeNull();
      await expect(page.locator("#calls-count").textContent()).resolves.toBe("6 calls, newest first.");
    },
    SLOW_MS,
  );

  test(
    "calls are filtered by tool, by surface, and to failures",
    async () => {
      const visible = () => calls().filter({ visible: true });
      await page.getByLabel("Tool", { exact: true }).selectOption("ast_edit");
      await until(() => visible().count(), 1);
      await expect(page.locator("#calls-count").textContent()).resolves.toBe("1 of 6 calls match the filter.");
      await page.getByLabel("Tool", { exact: true }).selectOption("");
      await page.getByLabel("Surface", { exact: true }).selectOption("plan");
      await until(() => visible().count(), 1);
      await expect(visible().first().textContent()).resolves.toContain("sum($X)");
      await page.getByLabel("Surface", { exact: true }).selectOption("");
      await page.getByLabel("failed or cancelled only").check();
      await until(() => visible().count(), 1);
      await expect(visible().first().textContent()).resolves.toContain("unknown_language");
      await page.getByLabel("failed or cancelled only").uncheck();
      await until(() => visible().count(), 6);
      // The tool filter offers each tool seen in the run, sorted.
      const tools = await page.getByLabel("Tool", { exact: true }).locator("option").allTextContents();
      expect(tools).toEqual(["every tool", "ast_edit", "ast_grep", "eval"]);
    },
    SLOW_MS,
  );

  test(
    "the resources show the kernel with its interpreter and cells run, and the surfaces",
    async () => {
      const kernels = page.getByRole("table", { name: "Kernels" });
      const python = kernels.getByRole("row").filter({ hasText: "python" });
      await python.filter({ hasText: "1 cell run" }).waitFor({ timeout: GLANCE_WAIT_MS });
      await expect(python.textContent()).resolves.toContain("idle");
      await expect(python.textContent()).resolves.toMatch(/pid \d+/);
      await expect(python.textContent()).resolves.toContain("/usr/bin/python3");
      // Resources the run has but has not used say how they start.
      const surfaces = page.getByRole("table", { name: "Surfaces and their tools" });
      await expect(surfaces.getByRole("row").filter({ hasText: "plan" }).textContent()).resolves.toContain("read");
    },
    SLOW_MS,
  );

  test(
    "a permission card is decided with one click, shows who asked and counts down to its timeout",
    async () => {
      const token = t.run.surfaces.default!;
      const decision = t.fetch("/harness/permission", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ question: "Run `rm -rf build` before the release build?", context: "The agent wants a clean build." }),
      });
      const card = page.getByRole("article", { name: "Run `rm -rf build` before the release build?" });
      await card.waitFor();
      await expect(card.textContent()).resolves.toContain("asked by the harness");
      await expect(card.locator(".countdown").textContent()).resolves.toMatch(/^times out in \d+:\d\d$/);
      const question = agent.callTool({ name: "ask_user", arguments: { question: "Ship on Friday?", options: [{ label: "Yes" }, { label: "No" }] } });
      const asked = page.getByRole("article", { name: "Ship on Friday?" });
      await asked.waitFor();
      await expect(asked.textContent()).resolves.toContain("asked on surface default");

      await page.screenshot({ path: join(ARTIFACTS, "console-1280.png"), fullPage: true });
      await page.setViewportSize({ width: 420, height: 900 });
      await page.screenshot({ path: join(ARTIFACTS, "console-420.png"), fullPage: true });
      // docs/harness.md promises a 420 px window needs no sideways scroll, opened diffs and tables included.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
      await page.setViewportSize({ width: 1280, height: 900 });

      await card.getByRole("button", { name: "Allow" }).click();
      expect(await (await decision).json()).toEqual({ outcome: "allowed" });
      await card.waitFor({ state: "detached" });
      await asked.getByRole("radio", { name: "No" }).check();
      await asked.getByRole("button", { name: "Answer" }).click();
      expect((await question).structuredContent).toMatchObject({ outcome: "answered", selected: ["No"] });
    },
    SLOW_MS,
  );

  test(
    "an eval cell's plot is shown when the call is opened (the page's CSP lets data: images through)",
    async () => {
      const plot = await agent.callTool({
        name: "eval",
        arguments: { code: "import matplotlib.pyplot as plt\nplt.figure(figsize=(4, 3), dpi=100)\nplt.plot([1, 3, 2])\nplt.show()", language: "python", description: "Plot three points" },
      });
      expect((plot.content as { type: string }[]).some((block) => block.type === "image")).toBe(true);
      // eval's description leads the call's line, before its code.
      const item = callItem('description: "Plot three points", code: "import matplotlib');
      await item.locator("summary").click();
      const image = item.getByRole("img", { name: "Image 1 of the answer (image/png)" });
      await image.waitFor();
      // Decoded, not blocked: a CSP refusal or a broken data URL leaves naturalWidth at 0.
      await until(() => image.evaluate((node) => (node as HTMLImageElement).naturalWidth), 400);
    },
    SLOW_MS,
  );

  test(
    "a call is shown while it runs, with a clock counting up, and moves to the list when it ends",
    async () => {
      // The previous test's ask_user call reaches the page a moment after its client got the answer.
      await callItem("Ship on Friday?").waitFor();
      const before = await calls().count();
      const slow = agent.callTool({ name: "eval", arguments: { code: "import time\ntime.sleep(4)\n'slept'", language: "python", description: "Sleep for four seconds" } });
      const running = page.getByRole("list", { name: "Calls running now" }).getByRole("listitem");
      await running.filter({ hasText: "eval" }).filter({ hasText: "time.sleep(4)" }).waitFor();
      await running.locator(".elapsed").filter({ hasText: /running for [2-9] s/ }).waitFor();
      expect((await slow).isError).toBeFalsy();
      await running.first().waitFor({ state: "detached" });
      await until(() => calls().count(), before + 1);
      await expect(calls().first().locator(".tool").textContent()).resolves.toBe("eval");
    },
    SLOW_MS,
  );

  test(
    "a run whose questions go to the harness's port has the console too: its calls, and a sentence where the cards would be",
    async () => {
      await using port = await startQuestionPort();
      await using other = await startTestRun(dir.path, { resources: { questions: { port: port.url, space: "s" }, parser: {} } });
      const watcher = await browser.context.newPage();
      try {
        await watcher.goto(other.run.page);
        await watcher.getByRole("status").filter({ hasText: "Connected: watching this run" }).waitFor();
        await watcher.getByText("This run's questions are not answered on this page").waitFor();
        expect(await watcher.getByRole("heading", { name: "Questions answered" }).isVisible()).toBe(false);
        expect(await watcher.getByText("No questions are waiting").isVisible()).toBe(false);
        const found = await (await other.client()).callTool({ name: "ast_grep", arguments: { pattern: "print($A)", path: "app.py" } });
        expect(found.isError).toBeFalsy();
        await watcher.getByRole("list", { name: "Tool calls, newest first" }).getByRole("listitem").filter({ hasText: "ast_grep" }).waitFor();
      } finally {
        await watcher.close();
      }
    },
    SLOW_MS,
  );
});
