// The layering docs/architecture.md states, held by reading every import in src/: each folder
// imports only from layers below its own (never a sibling folder of its layer), and no files import
// each other in a cycle, type-only imports included.
import { describe, expect, test } from "bun:test";
import { join, relative } from "node:path";
import { importsOf, LAYERS, SRC, sourceFiles } from "./source-files.ts";


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
