// The operator page in a real Chromium: pending ask_user calls answered by clicking, Skip, and fail-closed after closing.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { launchBrowser, type TestBrowser } from "../helpers/browser.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";

/** Screenshots land here (gitignored) for a person to look at. */
const ARTIFACTS = join(import.meta.dir, "..", "..", "test-artifacts");
/** Bound on waiting for the sidecar to notice a closed page. */
const DETACH_WAIT_MS = 20_000;

// Chromium on a 2-core machine shared by several test runs: seconds per step, not milliseconds.
setDefaultTimeout(60_000);

let browser: TestBrowser;
let dir: TempDir;
let t: TestRun;

beforeAll(async () => {
  browser = await launchBrowser();
  dir = await tempDir();
  t = await startTestRun(dir.path, { resources: { questions: { space: "local" } } });
  await mkdir(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await t?.[Symbol.asyncDispose]();
  await dir?.[Symbol.asyncDispose]();
  await browser?.[Symbol.asyncDispose]();
});

async function openPage(): Promise<Page> {
  const page = await browser.context.newPage();
  // The same link every time: its ticket opens the page once, and this browser keeps the page after.
  await page.goto(t.run.page!);
  expect(new URL(page.url()).hash).toBe(""); // the ticket left the address bar
  await page.getByRole("status").filter({ hasText: "Connected" }).waitFor();
  return page;
}

function ask(args: Record<string, unknown>) {
  return t.client().then((client) => client.callTool({ name: "ask_user", arguments: args }));
}

describe("the operator page in Chromium", () => {
  test("a pending question is answered by clicking an option and Answer", async () => {
    const page = await openPage();
    const call = ask({
      question: "Which database should the cache use?",
      context: "The cache layer is being written now; the choice decides the driver.",
      options: [{ label: "Postgres", description: "already deployed" }, { label: "SQLite", description: "a file next to the app" }],
    });
    const card = page.getByRole("article", { name: "Which database should the cache use?" });
    await card.waitFor();
    await card.getByRole("radio", { name: "SQLite" }).check();
    await card.getByRole("button", { name: "Answer" }).click();
    expect((await call).structuredContent).toMatchObject({ outcome: "answered", selected: ["SQLite"], text: null });
    await card.waitFor({ state: "detached" });
    await page.getByRole("list", { name: "Questions answered, newest first" }).getByRole("listitem").filter({ hasText: "Which database should the cache use?" }).filter({ hasText: "SQLite" }).waitFor();
    await page.close();
  });

  test("the keyboard alone answers a card: Tab to the options, arrows to choose, Enter to send", async () => {
    const page = await openPage();
    const call = ask({ question: "Which branch should the fix go to?", options: [{ label: "main" }, { label: "release-2.4" }] });
    const card = page.getByRole("article", { name: "Which branch should the fix go to?" });
    await card.waitFor();
    await page.keyboard.press("Tab"); // the first option of the only card
    await page.keyboard.press("ArrowDown"); // the next radio in the group, checked as focus moves
    await page.keyboard.press("Enter"); // submits the card's form
    expect((await call).structuredContent).toMatchObject({ outcome: "answered", selected: ["release-2.4"] });
    await page.close();
  });

  test("multi-select and free text: several boxes ticked and the typed words both come back", async () => {
    const page = await openPage();
    await page.setViewportSize({ width: 420, height: 900 }); // a narrow window still reads well
    const call = ask({
      question: "Which checks should run before each commit?",
      context: "Slow checks make commits painful; pick what is worth it.",
      options: [
        { label: "Type check", description: "tsc --noEmit, about 4 s" },
        { label: "Unit tests", description: "the fast suite, about 20 s" },
        { label: "Lint", description: "style only" },
      ],
      multi_select: true,
      allow_free_text: true,
    });
    const card = page.getByRole("article", { name: "Which checks should run before each commit?" });
    await card.waitFor();
    await card.getByRole("checkbox", { name: "Type check" }).check();
    await card.getByRole("checkbox", { name: "Lint" }).check();
    await card.getByLabel("Your answer in words").fill("and the unit tests only on main");
    await page.screenshot({ path: join(ARTIFACTS, "operator-page-narrow.png"), fullPage: true });
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.screenshot({ path: join(ARTIFACTS, "operator-page.png"), fullPage: true });
    await card.getByRole("button", { name: "Answer" }).click();
    expect((await call).structuredContent).toMatchObject({
      outcome: "answered",
      selected: ["Type check", "Lint"],
      text: "and the unit tests only on main",
    });
    await page.close();
  });

  test("a card survives a reload; Skip ends it as skipped; Answer with nothing chosen is refused in the page", async () => {
    const page = await openPage();
    const call = ask({ question: "Should the old API stay for one release?", options: [{ label: "Yes" }, { label: "No" }] });
    await page.getByRole("article", { name: "Should the old API stay for one release?" }).waitFor();
    await page.reload(); // a reload detaches and re-attaches the page: the pending card must survive it
    await page.getByRole("status").filter({ hasText: "Connected" }).waitFor();
    const card = page.getByRole("article", { name: "Should the old API stay for one release?" });
    await card.waitFor();
    await card.getByRole("button", { name: "Answer" }).click();
    await card.getByRole("alert").filter({ hasText: "Choose an option first." }).waitFor();
    await card.getByRole("button", { name: "Skip" }).click();
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ outcome: "skipped", remembered: false });
    await page.close();
  });

  test("closing the page makes the next ask fail closed at once", async () => {
    const page = await openPage();
    const board = t.run.resources.questions!.board!;
    expect(board.attached).toBeGreaterThan(0);
    await page.close();
    const deadline = Date.now() + DETACH_WAIT_MS;
    while (board.attached > 0 && Date.now() < deadline) await Bun.sleep(50);
    expect(board.attached).toBe(0);
    const result = await ask({ question: "Still there?", allow_free_text: true });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toContain("No human is attached to answer");
  });
});
