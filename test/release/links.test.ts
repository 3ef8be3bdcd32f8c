// Every link in the README and the docs resolves, in the repository and inside a release archive
// (which holds only the binary and the files compile.ts ships beside it).
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { SHIPPED_FILES } from "../../compile.ts";

const root = resolve(import.meta.dir, "..", "..");

function shippedMarkdown(): string[] {
  const files: string[] = [];
  const walk = (path: string) => {
    if (statSync(path).isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
    else if (path.endsWith(".md")) files.push(relative(root, path));
  };
  for (const entry of SHIPPED_FILES) walk(join(root, entry));
  return files.sort();
}

/** Inside the archive: the shipped entries themselves, or anything below a shipped folder. */
function isShipped(path: string): boolean {
  return SHIPPED_FILES.some((entry) => path === entry || path.startsWith(`${entry}/`));
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const headings = [...markdown.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => m[1]!);
  return new Set(headings.map((h) => h.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").trim().replace(/\s/g, "-")));
}

const markdownFiles = shippedMarkdown();

describe("links in the shipped documentation", () => {
  test("README, LICENSE and docs/ are what an archive ships", () => {
    expect(SHIPPED_FILES).toEqual(["README.md", "LICENSE", "docs"]);
    for (const entry of SHIPPED_FILES) expect(existsSync(join(root, entry))).toBe(true);
    expect(markdownFiles).toContain("README.md");
    expect(markdownFiles).toContain("docs/tools.md");
  });

  test.each(markdownFiles)("%s: every relative link resolves to a shipped file (and heading)", (file) => {
    const text = readFileSync(join(root, file), "utf8");
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue; // http(s), mailto: not checked offline
      const [path, anchor] = target!.split("#") as [string, string | undefined];
      const linked = path ? relative(root, resolve(root, dirname(file), path)) : file;
      if (!existsSync(join(root, linked))) broken.push(`${target}: no such file`);
      else if (!isShipped(linked)) broken.push(`${target}: ${linked} is not in the release archive`);
      else if (anchor && linked.endsWith(".md") && !anchorsOf(readFileSync(join(root, linked), "utf8")).has(anchor)) {
        broken.push(`${target}: no heading #${anchor} in ${linked}`);
      }
    }
    expect(broken).toEqual([]);
  });

  test.each(markdownFiles)("%s: every docs/… file it names exists, and nothing points outside the repository", (file) => {
    const text = readFileSync(join(root, file), "utf8");
    const named = [...text.matchAll(/\bdocs\/[\w.-]+\.(?:md|json)\b/g)].map((m) => m[0]);
    expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
    expect(text).not.toMatch(/\.\.\/shared\//);
  });
});
