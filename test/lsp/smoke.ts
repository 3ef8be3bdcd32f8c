import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";
import { call, LSP_CONFIG, TS_PROJECT, PY_PROJECT } from "./fixtures.ts";
await using dir = await tempDir();
await dir.write({ ...TS_PROJECT, ...PY_PROJECT });
await using t = await startTestRun(dir.path, LSP_CONFIG);
const c = await t.client();
const t0 = Date.now();
for (const args of [
  { action: "definition", file: "src/main.ts", line: 5, symbol: "totalArea" },
  { action: "references", file: "src/shapes.ts", line: 7, symbol: "Circle" },
  { action: "hover", file: "src/main.ts", line: 3, symbol: "Circle" },
  { action: "implementation", file: "src/shapes.ts", line: 2, symbol: "Shape" },
  { action: "type_definition", file: "src/main.ts", line: 3, symbol: "circle" },
  { action: "symbols", file: "src/shapes.ts" },
  { action: "symbols", query: "Circ", file: "src/main.ts" },
  { action: "diagnostics", file: "src/main.ts" },
  { action: "code_actions", file: "src/main.ts", line: 5, symbol: "totalArea" },
  { action: "definition", file: "pkg/app.py", line: 4, symbol: "double_area" },
  { action: "references", file: "pkg/geometry.py", line: 1, symbol: "Rectangle" },
  { action: "hover", file: "pkg/app.py", line: 3, symbol: "Rectangle" },
  { action: "symbols", file: "pkg/geometry.py" },
  { action: "symbols", query: "Rect", file: "pkg/app.py" },
  { action: "diagnostics", file: "pkg/app.py" },
  { action: "status" },
  { action: "diagnostics", file: "*" },
]) {
  const r = await call(c, "lsp", args);
  console.log(JSON.stringify(args), Date.now() - t0, r.isError ? "ERROR" : "", "\n", r.text.slice(0, 600), "\n");
}
