// The layers of src/ (docs/architecture.md), its files and the imports each makes, for the architecture tests.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export const SRC = resolve(import.meta.dir, "..", "..", "src");

/**
 * Top to bottom; a module may import from any layer below its own. Within a layer, a folder imports
 * only from itself: no domain reaches into another, and http/ and tools/ know nothing of each other.
 * Top-level files are named by file.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["main.ts", "main.node.ts", "main.deno.ts"],
  ["runtime"],
  ["cli"],
  ["run"],
  ["http", "tools", "console"],
  ["lsp", "dap", "syntax", "kernel", "questions", "workers"],
  ["doctor", "activity"],
  ["host"],
  ["config"],
  ["tool"],
  ["workspace", "process"],
  ["answer", "platform", "validation", "log", "version.ts"],
];

/** The domains: the services behind the tools. */
export const DOMAINS = LAYERS.find((units) => units.includes("lsp"))!;

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Every relative import of a file: static, dynamic, type-only and re-exports; TypeScript sources only. */
export function importsOf(file: string, text = readFileSync(file, "utf8")): string[] {
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s*["'](\.[^"']+)["']/gms),
    ...text.matchAll(/^\s*import\s*["'](\.[^"']+)["']/gm),
    ...text.matchAll(/\bimport\(\s*["'](\.[^"']+)["']\s*\)/g),
  ].map((match) => match[1]!);
  return specifiers.filter((spec) => spec.endsWith(".ts")).map((spec) => resolve(dirname(file), spec));
}
