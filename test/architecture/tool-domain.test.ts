// The rule between tools/ and the domains (docs/architecture.md, "Tools and domains"): a domain
// returns typed data and throws ToolFailure with a code; the answer a tool returns is put together
// in tools/; reading a syntax tree is syntax/'s job. Held by reading src/.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { DOMAINS, importsOf, SRC, sourceFiles } from "./source-files.ts";

/** The shape of a tool's answer (defineTool, ToolReply, image blocks): only tools/ and the framework build one. */
const ANSWER_SHAPE = join(SRC, "tool", "define.ts");

type Source = { file: string; text: string };

/** A tools/ file that imports web-tree-sitter: it would walk a tree itself. */
export function treeReaders(sources: readonly Source[]): string[] {
  return sources.filter(({ file, text }) => file.startsWith(join(SRC, "tools")) && /from\s*["']web-tree-sitter["']/.test(text)).map(({ file }) => relative(SRC, file));
}

/** A tools/ file that tests an error against a class other than ToolFailure: it translates a domain's own error. */
export function errorTranslations(sources: readonly Source[]): string[] {
  return sources
    .filter(({ file }) => file.startsWith(join(SRC, "tools")))
    .flatMap(({ file, text }) => [...text.matchAll(/instanceof\s+(\w+)/g)].filter((m) => /Error$|Failure$|Gone$|Exception$/.test(m[1]!) && m[1] !== "ToolFailure").map((m) => `${relative(SRC, file)}: instanceof ${m[1]}`));
}

/** A domain file that imports the shape of a tool's answer: it would word the answer itself. */
export function answerShapers(sources: readonly Source[]): string[] {
  return sources
    .filter(({ file }) => DOMAINS.includes(relative(SRC, file).split("/")[0]!))
    .filter(({ file, text }) => importsOf(file, text).includes(ANSWER_SHAPE))
    .map(({ file }) => relative(SRC, file));
}

const sources = (): Source[] => sourceFiles(SRC).map((file) => ({ file, text: readFileSync(file, "utf8") }));

describe("tools and domains (docs/architecture.md)", () => {
  test("no tool reads a syntax tree: it hands a parser back to syntax/", () => {
    expect(treeReaders(sources())).toEqual([]);
  });

  test("no tool translates a domain's own error: domains throw ToolFailure with its code", () => {
    expect(errorTranslations(sources())).toEqual([]);
  });

  test("no domain builds a tool's answer: tools/ puts it together from the domain's data", () => {
    expect(answerShapers(sources())).toEqual([]);
  });

  test("the checks catch what they are for", () => {
    const planted: Source[] = [
      { file: join(SRC, "tools", "a.ts"), text: 'import type { Node } from "web-tree-sitter";\nif (e instanceof RuleConfigError) x();\nif (e instanceof ToolFailure) y();' },
      { file: join(SRC, "kernel", "b.ts"), text: 'import type { ImageBlock } from "../tool/define.ts";' },
      { file: join(SRC, "syntax", "c.ts"), text: 'import type { Node } from "web-tree-sitter";' },
    ];
    expect(treeReaders(planted)).toEqual(["tools/a.ts"]);
    expect(errorTranslations(planted)).toEqual(["tools/a.ts: instanceof RuleConfigError"]);
    expect(answerShapers(planted)).toEqual(["kernel/b.ts"]);
  });
});
