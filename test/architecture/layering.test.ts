// The layering docs/architecture.md states, held by reading every import in src/: each folder
// imports only from layers below its own (never a sibling folder of its layer), and no files import
// each other in a cycle, type-only imports included.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "..", "..", "src");

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

function sourceFiles(dir: string): string[] {
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

/** The folder (or top-level file) a source file belongs to. */
function unitOf(file: string): string {
  return relative(SRC, file).split("/")[0]!;
}

function layerOf(unit: string): number {
  const layer = LAYERS.findIndex((units) => units.includes(unit));
  if (layer < 0) throw new Error(`src/${unit} is in no layer: add it to LAYERS here and to docs/architecture.md`);
  return layer;
}

/** Imports that run against the layering, as "src/a/x.ts → src/b/y.ts (why)". */
export function layeringViolations(graph: Map<string, string[]>): string[] {
  const violations: string[] = [];
  for (const [file, imports] of graph) {
    const from = unitOf(file);
    for (const target of imports) {
      const to = unitOf(target);
      if (from === to) continue;
      const [a, b] = [layerOf(from), layerOf(to)];
      if (a < b) continue;
      const why = a === b ? `${from}/ and ${to}/ are siblings in one layer` : `${to}/ is above ${from}/`;
      violations.push(`src/${relative(SRC, file)} → src/${relative(SRC, target)} (${why})`);
    }
  }
  return violations;
}

/** Files importing each other in a cycle (Tarjan's strongly connected components of size > 1, or a self-import). */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const lowlinks = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    lowlinks.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!indices.has(next)) {
        visit(next);
        lowlinks.set(node, Math.min(lowlinks.get(node)!, lowlinks.get(next)!));
      } else if (onStack.has(next)) {
        lowlinks.set(node, Math.min(lowlinks.get(node)!, indices.get(next)!));
      }
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.map((f) => `src/${relative(SRC, f)}`).sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return cycles;
}

function sourceGraph(): Map<string, string[]> {
  return new Map(sourceFiles(SRC).map((file) => [file, importsOf(file)]));
}

describe("the layering of src/ (docs/architecture.md)", () => {
  test("every import runs down the layers, never to a sibling folder of the same layer", () => {
    expect(layeringViolations(sourceGraph())).toEqual([]);
  });

  test("no files import each other in a cycle, type-only imports included", () => {
    expect(importCycles(sourceGraph())).toEqual([]);
  });

  test("the check itself catches what it is for", () => {
    const at = (path: string) => join(SRC, path);
    const graph = new Map([
      [at("lsp/a.ts"), [at("http/app.ts"), at("dap/b.ts"), at("tool/define.ts")]],
      [at("dap/b.ts"), [at("dap/c.ts")]],
      [at("dap/c.ts"), [at("dap/b.ts")]],
    ]);
    expect(layeringViolations(graph)).toEqual([
      "src/lsp/a.ts → src/http/app.ts (http/ is above lsp/)",
      "src/lsp/a.ts → src/dap/b.ts (lsp/ and dap/ are siblings in one layer)",
    ]);
    expect(importCycles(graph)).toEqual([["src/dap/b.ts", "src/dap/c.ts"]]);
    expect(importsOf(at("x/y.ts"), 'import type { A } from "../a/b.ts";\nexport { C } from "./c.ts";\nconst d = await import("../d/e.ts");\nimport "./side.ts";\nimport data from "./f.json";')).toEqual(
      [at("a/b.ts"), at("x/c.ts"), at("x/side.ts"), at("d/e.ts")],
    );
  });
});
