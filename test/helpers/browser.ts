// A real Chromium (Debian's /usr/bin/chromium) driven by playwright-core, with a fresh profile per launch.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** Without these, Chromium as root refuses to start or reaches for the network (updates, sync, first-run). */
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];

export interface TestBrowser extends AsyncDisposable {
  context: BrowserContext;
  /** The profile folder (--user-data-dir): the browser's history, storage and cookies on disk. */
  profile: string;
}

export async function launchBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (listed in .ci/run).`);
  }
  const profile = await mkdtemp(join(tmpdir(), "sidecar-chromium-"));
  // launchPersistentContext is playwright's way to pass --user-data-dir: a fresh, throwaway profile.
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS });
  return {
    context,
    profile,
    async [Symbol.asyncDispose]() {
      await context.close().catch(() => {});
      await rm(profile, { recursive: true, force: true });
    },
  };
}
