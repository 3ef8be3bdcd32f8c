// The operator page's secret in a real Chromium: another loopback port never receives it, and the
// browser's history database never holds it (issue 22 §1).
import { expect, setDefaultTimeout, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { launchBrowser } from "../helpers/browser.ts";
import { startTestRun, type TestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

// Chromium on a 2-core machine shared by several test runs: each test took 17–22 s under load.
setDefaultTimeout(90_000);

const QUESTIONS = { resources: { questions: { space: "local" } } };
const STORE_KEY = "sidecar-page-secret";

interface Seen {
  url: string;
  headers: string;
  body: string;
}

/**
 * A stranger on another loopback port, as any local program could run: it records every request,
 * and its page reports what it can read of storage and cookies, and asks for more with credentials.
 */
function stranger(): { origin: string; seen: Seen[]; stop(): void } {
  const seen: Seen[] = [];
  const page = `<!doctype html><title>stranger</title><script>
    fetch("/report", { method: "POST", credentials: "include", body: JSON.stringify({
      cookie: document.cookie, local: JSON.stringify(localStorage), session: JSON.stringify(sessionStorage) }) })
      .then(() => { document.title = "reported"; });
  </script>`;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      seen.push({ url: request.url, headers: JSON.stringify([...request.headers]), body: await request.text() });
      return new Response(page, { headers: { "Content-Type": "text/html" } });
    },
  });
  return { origin: `http://127.0.0.1:${server.port}`, seen, stop: () => server.stop(true) };
}

/** Opens the page from the ready line's link in a new tab and waits until it is connected; returns its secret. */
async function openOperatorPage(t: TestRun, context: Awaited<ReturnType<typeof launchBrowser>>["context"]) {
  const page = await context.newPage();
  await page.goto(t.run.page!);
  await page.getByRole("status").filter({ hasText: "Connected" }).waitFor();
  const secret = await page.evaluate((key) => localStorage.getItem(key), STORE_KEY);
  expect(secret).toBeTruthy();
  return { page, secret: secret! };
}

test("a server on another loopback port receives nothing of the page's secret, its ticket or any token", async () => {
  await using dir = await tempDir();
  await using t = await startTestRun(dir.path, QUESTIONS);
  await using browser = await launchBrowser();
  const other = stranger();
  try {
    const { page, secret } = await openOperatorPage(t, browser.context);
    const ticket = new URL(t.run.page!).hash.replace(/^#k=/, "");
    // The way the cookie leaked before: the operator page, then any page that reaches the other port,
    // by a link from the page itself, a new tab, or the same host by another name.
    await page.evaluate((url) => void window.open(url, "_blank"), `${other.origin}/from-the-page`);
    for (const url of [`${other.origin}/typed`, other.origin.replace("127.0.0.1", "localhost") + "/by-name"]) {
      const tab = await browser.context.newPage();
      await tab.goto(url);
      await tab.waitForFunction(() => document.title === "reported");
      await tab.close();
    }
    const deadline = Date.now() + 10_000;
    while (other.seen.filter((s) => s.url.endsWith("/report")).length < 3 && Date.now() < deadline) await Bun.sleep(50);
    expect(other.seen.filter((s) => s.url.endsWith("/report"))).toHaveLength(3); // it was reached, and reported
    const everything = JSON.stringify(other.seen);
    for (const secretish of [secret, ticket, ...Object.values(t.run.surfaces)]) expect(everything).not.toContain(secretish);
    expect(await browser.context.cookies()).toEqual([]); // nothing a port-blind cookie jar could hand on
  } finally {
    other.stop();
  }
});

test("the secret is not in Chromium's history database, and the link the history keeps is spent", async () => {
  await using dir = await tempDir();
  await using t = await startTestRun(dir.path, QUESTIONS);
  await using browser = await launchBrowser();
  const { page, secret } = await openOperatorPage(t, browser.context);
  await page.reload(); // the page reopens from this browser's storage: no secret in the address bar either
  await page.getByRole("status").filter({ hasText: "Connected" }).waitFor();
  expect(page.url()).toBe(t.run.url.replace(/\/mcp$/, "/"));
  await browser.context.close(); // Chromium writes its history database out as it closes

  const history = join(browser.profile, "Default", "History");
  const dump = spawnSync(
    "python3",
    ["-c", "import sqlite3, sys, json; c = sqlite3.connect(sys.argv[1]); print(json.dumps([list(r) for r in c.execute('select url, title from urls')]))", history],
    { encoding: "utf8" },
  );
  expect(dump.stderr).toBe("");
  const rows = JSON.parse(dump.stdout) as [string, string][];
  const origin = t.run.url.replace(/\/mcp$/, "");
  expect(rows.some(([url]) => url.startsWith(origin))).toBe(true); // the page's visits were recorded
  expect(JSON.stringify(rows)).not.toContain(secret);
  // What the history does hold is the link's ticket, which opens nothing any more.
  const kept = rows.map(([url]) => /#k=([\w-]+)/.exec(url)?.[1]).find(Boolean);
  expect(kept).toBe(new URL(t.run.page!).hash.replace(/^#k=/, ""));
  const reuse = await t.fetch("/operator/session", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify({ ticket: kept }),
  });
  expect(reuse.status).toBe(401);
});
