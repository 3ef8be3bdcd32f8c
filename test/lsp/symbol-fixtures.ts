// One small project per language (TypeScript, Python, Go, C), each with a class-like type, a method,
// a doc comment, a caller and a duplicate name: what name paths, body and symbol_edit are tested on.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import type { TempDir } from "../helpers/temp-dir.ts";
import { requireBinary } from "./fixtures.ts";

/** Fails (never skips) without one of the four servers, and writes the four projects into the folder. */
export async function writeSymbolProjects(dir: TempDir): Promise<void> {
  requireBinary("typescript-language-server", "npm i -D typescript-language-server typescript@5");
  requireBinary("pyright-langserver", "npm i -D pyright");
  requireBinary("gopls", "apt-get install gopls golang-go");
  requireBinary("clangd", "apt-get install clangd");
  await dir.write({ ...SYMBOL_PROJECTS, ...cProject(dir.path) });
}

export const SYMBOL_PROJECTS = {
  "ts/package.json": JSON.stringify({ name: "fixture", private: true }),
  "ts/tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, target: "es2022", module: "esnext", moduleResolution: "bundler", noEmit: true }, include: ["src"] }),
  "ts/src/parser.ts": [
    "/** Parses command lines. */",
    "export class Parser {",
    "  /** Reads the arguments. */",
    "  parseArgs(argv: string[]): string[] {",
    '    return argv.filter((a) => a.startsWith("-"));',
    "  }",
    "",
    "  run(argv: string[]): number {",
    "    const flags = this.parseArgs(argv);",
    "    return flags.length;",
    "  }",
    "}",
    "",
    "export function parseArgs(text: string): string[] {",
    '  return text.split(" ");',
    "}",
    "",
  ].join("\n"),
  "py/pyproject.toml": '[project]\nname = "fixture"\nversion = "0.1.0"\n',
  "py/pkg/__init__.py": "",
  "py/pkg/cli.py": [
    "import functools",
    "",
    "",
    "class Parser:",
    '    """Parses command lines."""',
    "",
    "    @functools.cache",
    "    def parse_args(self, argv: str) -> list[str]:",
    '        """Reads the arguments."""',
    "        return argv.split()",
    "",
    "    def run(self, argv: str) -> int:",
    "        return len(self.parse_args(argv))",
    "",
    "",
    "def main() -> int:",
    "    def helper() -> int:",
    "        return 1",
    "",
    '    return Parser().run("a b") + helper()',
    "",
  ].join("\n"),
  "go/go.mod": "module example.com/shapes\n\ngo 1.19\n",
  "go/shapes.go": [
    "package shapes",
    "",
    "// Parser parses command lines.",
    "type Parser struct {",
    "\tprefix string",
    "}",
    "",
    "// Parse reads the arguments.",
    "func (p *Parser) Parse(argv []string) []string {",
    "\tvar out []string",
    "\tfor _, a := range argv {",
    "\t\tout = append(out, p.prefix+a)",
    "\t}",
    "\treturn out",
    "}",
    "",
    "// Run parses and counts.",
    "func Run(argv []string) int {",
    '\tp := &Parser{prefix: "-"}',
    "\treturn len(p.Parse(argv))",
    "}",
    "",
  ].join("\n"),
  "c/calc.c": [
    "#include <stdio.h>",
    "",
    "/* Adds one. */",
    "static int add_one(int n) {",
    "  return n + 1;",
    "}",
    "",
    "int main(void) {",
    '  printf("%d\\n", add_one(2));',
    "  return 0;",
    "}",
    "",
  ].join("\n"),
};

/** clangd finds the C project by its compile_commands.json, which names the folder. */
export function cProject(dir: string): Record<string, string> {
  return { "c/compile_commands.json": JSON.stringify([{ directory: `${dir}/c`, file: "calc.c", arguments: ["cc", "-std=c11", "-c", "calc.c"] }]) };
}

/** What a project's own checker (tsc, pyright, go vet, clang) says in one of its folders: "" when clean. */
export function projectChecker(dir: string, folder: string, command: string, args: string[]): string {
  try {
    execFileSync(command, args, { cwd: join(dir, folder), stdio: "pipe" });
    return "";
  } catch (error) {
    const e = error as { stdout?: Buffer; stderr?: Buffer };
    return `${e.stdout ?? ""}${e.stderr ?? ""}` || String(error);
  }
}
