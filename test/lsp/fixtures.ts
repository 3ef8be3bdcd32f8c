// Shared set-up for the language-server tests: the repo's node_modules/.bin on PATH, small projects, tool calls.
import { execFileSync } from "node:child_process";
import { delimiter, join, resolve } from "node:path";

const REPO = resolve(import.meta.dir, "../..");
/** typescript-language-server, pyright-langserver, tsc and pyright come from devDependencies. */
process.env.PATH = `${join(REPO, "node_modules", ".bin")}${delimiter}${process.env.PATH ?? ""}`;

/** Fails (never skips) when a server the test needs is not installed, naming the install command. */
export function requireBinary(name: string, install: string): void {
  try {
    execFileSync("sh", ["-c", `command -v ${name}`], { stdio: "pipe" });
  } catch {
    throw new Error(`${name} is not installed; install it with: ${install}`);
  }
}

export const TS_PROJECT = {
  "package.json": JSON.stringify({ name: "fixture", private: true }),
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, target: "es2022", module: "esnext", moduleResolution: "bundler", noEmit: true }, include: ["src"] }),
  "src/shapes.ts": [
    "/** Anything with an area. */",
    "export interface Shape {",
    "  area(): number;",
    "}",
    "",
    "/** A circle of the given radius. */",
    "export class Circle implements Shape {",
    "  constructor(readonly radius: number) {}",
    "  area(): number {",
    "    return Math.PI * this.radius * this.radius;",
    "  }",
    "}",
    "",
    "export function totalArea(shapes: Shape[]): number {",
    "  return shapes.reduce((sum, shape) => sum + shape.area(), 0);",
    "}",
    "",
  ].join("\n"),
  "src/main.ts": [
    'import { Circle, totalArea } from "./shapes.js";',
    "",
    "const circle = new Circle(2);",
    "const shapes = [circle, new Circle(3)];",
    "console.log(totalArea(shapes), circle.area());",
    "",
  ].join("\n"),
};

export const PY_PROJECT = {
  "pyproject.toml": '[project]\nname = "fixture"\nversion = "0.1.0"\n',
  "pkg/__init__.py": "",
  "pkg/geometry.py": [
    "class Rectangle:",
    '    """A rectangle with a width and a height."""',
    "",
    "    def __init__(self, width: float, height: float) -> None:",
    "        self.width = width",
    "        self.height = height",
    "",
    "    def area(self) -> float:",
    "        return self.width * self.height",
    "",
    "",
    "def double_area(shape: Rectangle) -> float:",
    "    return shape.area() * 2",
    "",
  ].join("\n"),
  "pkg/app.py": [
    "from pkg.geometry import Rectangle, double_area",
    "",
    "box = Rectangle(2, 3)",
    "print(double_area(box), box.area())",
    "",
  ].join("\n"),
};

/** The one call() helper, which lists the tools first (the SDK then checks results against their output schemas). */
export { call } from "../helpers/call.ts";

export const LSP_CONFIG = { resources: { languageServers: {} } };
