// Regenerates grammars/ from pinned npm packages: fetches each package with `npm pack` (into a
// temporary folder, so no grammar package sits in node_modules), stores its WASM grammar gzipped (a
// quarter of the size inside the binary), checks the sha256 of the uncompressed bytes against the
// manifest (or writes it with --update), and writes the Bun embedding module.
// Each grammar comes from the newest package whose WASM web-tree-sitter 0.27 loads and that parsed
// the bench corpus with the fewest ERROR/MISSING nodes (docs/ast-grep.md, "Grammars").
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { GrammarInfo } from "../src/syntax/grammars.ts";

interface GrammarSourceEntry {
  /** npm package and exact version. */
  package: string;
  version: string;
  /** The WASM file inside the package. */
  wasm: string;
  /** File extensions (lower case, with the dot) that map to this grammar. */
  extensions: string[];
}

const CURSORLESS = { package: "@cursorless/tree-sitter-wasms", version: "0.7.0" };
const REPOMIX = { package: "@repomix/tree-sitter-wasms", version: "0.1.17" };
const official = (pkg: string, version: string, wasm: string) => ({ package: pkg, version, wasm });

/** Grammar id → where its WASM comes from. The ids are the names ast_grep and ast_edit accept. */
const GRAMMARS: Record<string, GrammarSourceEntry> = {
  bash: { ...official("tree-sitter-bash", "0.25.1", "tree-sitter-bash.wasm"), extensions: [".sh", ".bash"] },
  c: { ...official("tree-sitter-c", "0.24.1", "tree-sitter-c.wasm"), extensions: [".c", ".h"] },
  c_sharp: { ...official("tree-sitter-c-sharp", "0.23.5", "tree-sitter-c_sharp.wasm"), extensions: [".cs"] },
  clojure: { ...CURSORLESS, wasm: "out/tree-sitter-clojure.wasm", extensions: [".clj", ".cljs", ".cljc", ".edn"] },
  cpp: { ...official("tree-sitter-cpp", "0.23.4", "tree-sitter-cpp.wasm"), extensions: [".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ino", ".cu"] },
  css: { ...official("tree-sitter-css", "0.25.0", "tree-sitter-css.wasm"), extensions: [".css"] },
  dart: { ...REPOMIX, wasm: "out/tree-sitter-dart.wasm", extensions: [".dart"] },
  elixir: { ...official("tree-sitter-elixir", "0.3.5", "tree-sitter-elixir.wasm"), extensions: [".ex", ".exs"] },
  elm: { ...CURSORLESS, wasm: "out/tree-sitter-elm.wasm", extensions: [".elm"] },
  gleam: { ...CURSORLESS, wasm: "out/tree-sitter-gleam.wasm", extensions: [".gleam"] },
  go: { ...official("tree-sitter-go", "0.25.0", "tree-sitter-go.wasm"), extensions: [".go"] },
  haskell: { ...official("tree-sitter-haskell", "0.23.1", "tree-sitter-haskell.wasm"), extensions: [".hs", ".lhs"] },
  hcl: { ...official("@tree-sitter-grammars/tree-sitter-hcl", "1.2.0", "tree-sitter-hcl.wasm"), extensions: [".hcl", ".tf", ".tfvars"] },
  html: { ...official("tree-sitter-html", "0.23.2", "tree-sitter-html.wasm"), extensions: [".html", ".htm", ".xhtml"] },
  java: { ...official("tree-sitter-java", "0.23.5", "tree-sitter-java.wasm"), extensions: [".java"] },
  javascript: { ...official("tree-sitter-javascript", "0.25.0", "tree-sitter-javascript.wasm"), extensions: [".js", ".mjs", ".cjs", ".jsx"] },
  json: { ...official("tree-sitter-json", "0.24.8", "tree-sitter-json.wasm"), extensions: [".json"] },
  kotlin: { ...official("@tree-sitter-grammars/tree-sitter-kotlin", "1.1.0", "tree-sitter-kotlin.wasm"), extensions: [".kt", ".kts"] },
  lua: { ...official("@tree-sitter-grammars/tree-sitter-lua", "0.4.1", "tree-sitter-lua.wasm"), extensions: [".lua"] },
  // Searched only when a search names it (grammars.ts, SEARCHED_WHEN_NAMED): see docs/ast-grep.md.
  markdown: { ...CURSORLESS, wasm: "out/tree-sitter-markdown.wasm", extensions: [".md", ".markdown"] },
  nix: { ...CURSORLESS, wasm: "out/tree-sitter-nix.wasm", extensions: [".nix"] },
  perl: { ...CURSORLESS, wasm: "out/tree-sitter-perl.wasm", extensions: [".pl", ".pm", ".t"] },
  php: { ...official("tree-sitter-php", "0.24.2", "tree-sitter-php.wasm"), extensions: [".php"] },
  python: { ...official("tree-sitter-python", "0.25.0", "tree-sitter-python.wasm"), extensions: [".py", ".pyi"] },
  r: { ...official("@eagleoutice/tree-sitter-r", "1.1.2", "tree-sitter-r.wasm"), extensions: [".r"] },
  ruby: { ...official("tree-sitter-ruby", "0.23.1", "tree-sitter-ruby.wasm"), extensions: [".rb"] },
  rust: { ...official("tree-sitter-rust", "0.24.0", "tree-sitter-rust.wasm"), extensions: [".rs"] },
  scala: { ...official("tree-sitter-scala", "0.24.0", "tree-sitter-scala.wasm"), extensions: [".scala", ".sc"] },
  scss: { ...CURSORLESS, wasm: "out/tree-sitter-scss.wasm", extensions: [".scss"] },
  solidity: { ...REPOMIX, wasm: "out/tree-sitter-solidity.wasm", extensions: [".sol"] },
  svelte: { ...official("tree-sitter-svelte", "0.11.0", "tree-sitter-svelte.wasm"), extensions: [".svelte"] },
  swift: { ...CURSORLESS, wasm: "out/tree-sitter-swift.wasm", extensions: [".swift"] },
  toml: { ...official("@tree-sitter-grammars/tree-sitter-toml", "0.7.0", "tree-sitter-toml.wasm"), extensions: [".toml"] },
  tsx: { ...official("tree-sitter-typescript", "0.23.2", "tree-sitter-tsx.wasm"), extensions: [".tsx"] },
  typescript: { ...official("tree-sitter-typescript", "0.23.2", "tree-sitter-typescript.wasm"), extensions: [".ts", ".mts", ".cts"] },
  vue: { ...REPOMIX, wasm: "out/tree-sitter-vue.wasm", extensions: [".vue"] },
  xml: { ...CURSORLESS, wasm: "out/tree-sitter-xml.wasm", extensions: [".xml", ".xsd", ".xsl", ".xslt", ".svg", ".plist"] },
  yaml: { ...official("@tree-sitter-grammars/tree-sitter-yaml", "0.7.1", "tree-sitter-yaml.wasm"), extensions: [".yaml", ".yml"] },
  zig: { ...official("@tree-sitter-grammars/tree-sitter-zig", "1.1.2", "tree-sitter-zig.wasm"), extensions: [".zig", ".zon"] },
};

const root = join(import.meta.dir, "..");
const manifestPath = join(root, "grammars", "manifest.json");
const update = process.argv.includes("--update");
const previous: GrammarInfo[] = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, "utf8")).grammars : [];
const problems: string[] = [];

/** Each package is fetched once (several grammars share one) and unpacked in a temporary folder. */
const work = mkdtempSync(join(tmpdir(), "sidecar-grammars-"));
const unpacked = new Map<string, string>();
function packageDir(pkg: string, version: string): string {
  const key = `${pkg}@${version}`;
  let dir = unpacked.get(key);
  if (!dir) {
    dir = join(work, String(unpacked.size));
    mkdirSync(dir);
    execFileSync("npm", ["pack", key, "--silent", "--pack-destination", dir], { stdio: ["ignore", "ignore", "inherit"] });
    const tarball = readdirSync(dir).find((name) => name.endsWith(".tgz"))!;
    execFileSync("tar", ["-xzf", tarball], { cwd: dir });
    dir = join(dir, "package");
    unpacked.set(key, dir);
  }
  return dir;
}

let entries: GrammarInfo[];
try {
  entries = Object.entries(GRAMMARS).map(([id, source]) => {
    const wasm = readFileSync(join(packageDir(source.package, source.version), source.wasm));
    const file = `tree-sitter-${id}.wasm.gz`;
    const sha256 = createHash("sha256").update(wasm).digest("hex");
    const known = previous.find((g) => g.id === id);
    if (known && known.sha256 !== sha256 && !update) {
      problems.push(`${id}: ${source.package}@${source.version} ships sha256 ${sha256}, the manifest pins ${known.sha256}`);
    }
    // gzip headers carry no timestamp from zlib, so the output is the same on every run.
    writeFileSync(join(root, "grammars", file), gzipSync(wasm, { level: 9 }));
    return { id, file, extensions: source.extensions, package: source.package, version: source.version, sha256 };
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (problems.length) {
  console.error(`Grammar hashes differ from grammars/manifest.json (run with --update to accept):\n${problems.join("\n")}`);
  process.exit(1);
}

// Grammars no longer listed leave the folder with their manifest entry.
const kept = new Set(entries.map((g) => g.file));
for (const name of readdirSync(join(root, "grammars"))) if (name.endsWith(".wasm.gz") && !kept.has(name)) rmSync(join(root, "grammars", name));

writeFileSync(manifestPath, `${JSON.stringify({ grammars: entries }, null, 2)}\n`);

const imports = entries.map((g, i) => `import g${i} from "../../grammars/${g.file}" with { type: "file" };`);
const table = entries.map((g, i) => `  ${JSON.stringify(g.id)}: g${i},`);
writeFileSync(
  join(root, "src", "runtime", "grammar-files.bun.ts"),
  [
    "// Generated by build/grammars.ts: every grammar embedded in the compiled binary, by id.",
    ...imports,
    'import runtimeWasm from "web-tree-sitter/web-tree-sitter.wasm" with { type: "file" };',
    "",
    "export const grammarFiles: Record<string, string> = {",
    ...table,
    "};",
    "",
    "export const treeSitterRuntimeFile: string = runtimeWasm;",
    "",
  ].join("\n"),
);
console.log(`grammars: ${entries.length} written from ${unpacked.size} packages`);
