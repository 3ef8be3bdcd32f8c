// Whether node runs a program as an ES module or as CommonJS: its extension, else the nearest
// package.json's "type" (node's own rule for .js, which tsx follows for .ts).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

type ModuleFormat = "module" | "commonjs";

export function moduleFormat(program: string): ModuleFormat {
  if (/\.m[jt]sx?$/.test(program)) return "module";
  if (/\.c[jt]sx?$/.test(program)) return "commonjs";
  for (let dir = dirname(program); ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) return packageType(manifest);
    if (dirname(dir) === dir) return "commonjs";
  }
}

function packageType(manifest: string): ModuleFormat {
  try {
    return (JSON.parse(readFileSync(manifest, "utf8")) as { type?: unknown }).type === "module" ? "module" : "commonjs";
  } catch {
    return "commonjs"; // node refuses to run a broken manifest's package anyway, and says why
  }
}
