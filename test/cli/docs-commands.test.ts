// Every `sidecar …` command line the docs show parses with the sidecar's own command-line parser: a flag
// the docs promise that the command refuses (docs/lsp.md once sent users to `serve --cache-dir`) fails here.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCommandLine } from "../../src/cli/args.ts";

const ROOT = join(import.meta.dir, "..", "..");
const DOCS = [...readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`), "README.md"];

/** A shell line's command starts the line, or follows `nohup` or a launcher's `--` (`claude mcp add sidecar -- sidecar serve --stdio`). */
const SHELL_COMMAND = /^(?:\$ )?(?:.* -- |nohup )?(sidecar (?:[a-z_-]+|--?[a-z]+)\b.*)$/;

/** The command lines of one doc: shell lines in code blocks (fenced or indented) and inline code spans that start with `sidecar `. */
function commandLines(text: string): string[] {
  const found: string[] = [];
  let fence: string | undefined;
  for (const line of text.split("\n")) {
    const opening = /^\s*```(\w*)/.exec(line);
    if (opening) {
      fence = fence === undefined ? opening[1]! : undefined;
      continue;
    }
    if (fence !== undefined || /^ {4}/.test(line)) {
      // JSON and other non-shell blocks hold no command lines.
      if (fence !== undefined && !["", "sh", "bash", "shell", "console"].includes(fence)) continue;
      const command = SHELL_COMMAND.exec(line.trim())?.[1];
      if (command) found.push(command);
      continue;
    }
    for (const span of line.matchAll(/`(sidecar [^`]*)`/g)) found.push(span[1]!);
  }
  return found;
}

/**
 * The words the parser sees, one list per alternative (`completion bash|zsh|fish` is three): no
 * comment, redirection or `&`, an elided `…` dropped, `[--pid N]` shown with its optional part.
 */
function argvs(line: string): string[][] {
  const words = (line.replace(/\s#.*$/, "").replace(/[[\]]/g, "").match(/"[^"]*"|\S+/g) ?? []).slice(1).filter((word) => word !== "…" && word !== "&" && !/^\d?>/.test(word));
  const choice = words.findIndex((word) => !word.startsWith('"') && word.includes("|"));
  if (choice < 0) return [words];
  return words[choice]!.split("|").flatMap((alternative) => argvs(["sidecar", ...words.slice(0, choice), alternative, ...words.slice(choice + 1)].join(" ")));
}

const LINES = DOCS.flatMap((doc) => commandLines(readFileSync(join(ROOT, doc), "utf8")).map((line) => [doc, line] as const))
  // The debug tool's Node.js adapter takes flags of its own, parsed by src/dap/node/main.ts before the command table (src/main.ts).
  .filter(([, line]) => !line.startsWith("sidecar __dap-node"));

describe("the docs' command lines", () => {
  test("are found: the blocks and spans that show commands are read", () => {
    const lines = LINES.map(([, line]) => line);
    expect(lines.length).toBeGreaterThan(30);
    expect(lines).toContain("sidecar servers install typescript python  # or --all");
    expect(lines).toContain("sidecar serve --stdio");
    expect(lines).toContain("sidecar console [--pid N]");
    expect(argvs("sidecar completion bash|zsh|fish")).toEqual([["completion", "bash"], ["completion", "zsh"], ["completion", "fish"]]);
  });

  test.each(LINES)("%s: %s parses", (_doc, line) => {
    for (const words of argvs(line)) expect(() => parseCommandLine(words)).not.toThrow();
  });
});
