// A Bun.build plugin that keeps the build directory out of the binary, so two clean builds of one
// commit are byte-identical wherever they are checked out (docs/release.md, "Reproducible builds").
import { readFileSync } from "node:fs";
import { relative, sep } from "node:path";
import type { BunPlugin } from "bun";

/**
 * Under `--compile` with bytecode, Bun inlines `import.meta.url`, `.dir`, `.path`, … as the build
 * machine's absolute paths (oven-sh/bun#29066). Every such use in this bundle is a from-source
 * branch (src/runtime/*.bun.ts) or an Emscripten default the runtime overrides (web-tree-sitter
 * gets its wasm bytes passed in), so each is pinned to the file's place under the binary's own
 * virtual root instead: `/$bunfs/root/<path from the checkout>`.
 */
export function reproduciblePaths(root: string): BunPlugin {
  return {
    name: "reproducible-paths",
    setup(build) {
      build.onLoad({ filter: /\.(?:[mc]?[jt]s|tsx)$/ }, ({ path }) => {
        const text = readFileSync(path, "utf8");
        if (!text.includes("import.meta")) return undefined;
        const file = `/$bunfs/root/${relative(root, path).split(sep).join("/")}`;
        const dir = file.slice(0, file.lastIndexOf("/"));
        const values: Record<string, string> = { url: `file://${file}`, path: file, filename: file, dir, dirname: dir };
        const contents = text.replace(/\bimport\.meta\.(url|path|filename|dirname|dir)\b/g, (_, key: string) => JSON.stringify(values[key]));
        return { contents, loader: loaderFor(path) };
      });
    },
  };
}

function loaderFor(path: string): "ts" | "tsx" | "js" {
  if (path.endsWith(".tsx")) return "tsx";
  return /\.[mc]?ts$/.test(path) ? "ts" : "js";
}
