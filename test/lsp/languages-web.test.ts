// HTML, CSS/SCSS/Less, JSON and PHP against their real servers, installed by the sidecar from npm:
// definition, references, hover, symbols, diagnostics and diagnostics on write, by line + symbol.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { languageRun, places, type LanguageRun } from "./language-run.ts";

const FILES = {
  "site/index.html":
    '<!DOCTYPE html>\n<html>\n<head>\n  <link rel="stylesheet" href="style.css">\n</head>\n<body>\n  <main id="app" class="card">Hello</main>\n  <script>\n    function greet(name) { return "hi " + name; }\n    greet("x");\n  </script>\n</body>\n</html>\n',
  "site/broken.html": "<!DOCTYPE html>\n<html>\n<body>\n  <script>\n    function greet(name { return 1; }\n  </script>\n</body>\n</html>\n",
  "site/style.css": ":root {\n  --accent: #c00;\n}\n\n.card {\n  color: var(--accent);\n  padding: 4px;\n}\n",
  "site/theme.scss": "$gap: 8px;\n\n@mixin spaced { margin: $gap; }\n\n.panel {\n  padding: $gap;\n  @include spaced;\n}\n",
  "site/print.less": "@ink: #333;\n.page { color: @ink; }\n",
  "site/broken.css": ".x { color: red\n  margin: 0;\n}\n",
  "site/schema.json": JSON.stringify({ type: "object", properties: { name: { type: "string", description: "The package's name." }, port: { type: "integer" } } }),
  "site/data.json": '{\n  "$schema": "./schema.json",\n  "name": "site",\n  "port": 8080\n}\n',
  "site/bad.json": '{\n  "$schema": "./schema.json",\n  "port": "eighty"\n}\n',
  "php/composer.json": '{"name": "acme/app"}',
  "php/src/Greeter.php": '<?php\n\nnamespace App;\n\n/** Greets people. */\nclass Greeter\n{\n    public function greet(string $name): string\n    {\n        return "hello " . $name;\n    }\n}\n',
  "php/src/main.php": '<?php\n\nnamespace App;\n\n$g = new Greeter();\necho $g->greet("x");\n',
  "php/src/broken.php": "<?php\n\nnamespace App;\n\necho missing_function();\n",
};

let r: LanguageRun;

// A first query waits for the server to start and analyse the project, slow on a loaded machine.
setDefaultTimeout(240_000);

beforeAll(async () => {
  r = await languageRun(["css", "php"], FILES);
}, 600_000);

afterAll(async () => {
  await r?.dispose();
});

describe("css, scss and less (vscode-css-language-server)", () => {
  test("definition and references of a custom property", async () => {
    const definition = await r.lsp({ action: "definition", file: "site/style.css", line: 6, symbol: "--accent" });
    expect(definition.text).toMatch(/^site\/style\.css:2:(\d+:)? +--accent: #c00;$/);
    const references = await r.lsp({ action: "references", file: "site/style.css", line: 2, symbol: "--accent" });
    expect(places(references.data)).toEqual(["site/style.css:2", "site/style.css:6"]);
  });

  test("scss and less variables", async () => {
    const scss = await r.lsp({ action: "references", file: "site/theme.scss", line: 1, symbol: "$gap" });
    expect(places(scss.data)).toEqual(["site/theme.scss:1", "site/theme.scss:3", "site/theme.scss:6"]);
    const less = await r.lsp({ action: "definition", file: "site/print.less", line: 2, symbol: "@ink" });
    expect(less.text).toMatch(/^site\/print\.less:1:(\d+:)? +@ink: #333;$/);
  });

  test("hover documents a property, without the inlined badge image", async () => {
    const a = await r.lsp({ action: "hover", file: "site/style.css", line: 7, symbol: "padding" });
    expect(a.text).toContain("Shorthand property to set values for the thickness of the padding area");
    expect(a.text).not.toContain("data:image");
  });

  test("symbols of a stylesheet", async () => {
    const a = await r.lsp({ action: "symbols", file: "site/theme.scss" });
    expect(a.text).toBe("site/theme.scss:1: variable $gap\nsite/theme.scss:3: method spaced\nsite/theme.scss:5: class .panel");
  });

  test("diagnostics", async () => {
    const a = await r.lsp({ action: "diagnostics", file: "site/broken.css" });
    expect(a.text).toContain("site/broken.css:2: error css-semicolonexpected: semi-colon expected");
  });

  test("diagnostics on write", async () => {
    await r.lsp({ action: "diagnostics", file: "site/style.css" });
    const outcome = await r.write({ "site/style.css": ":root {\n  --accent: #c00;\n}\n\n.card {\n  color: var(--accent)\n  padding: 4px;\n}\n" });
    expect(outcome.new).toContainEqual(expect.objectContaining({ path: "site/style.css", line: 7, code: "css-semicolonexpected" }));
  });
});

describe("html (vscode-html-language-server, scripts and styles inside)", () => {
  test("definition and references of a function in a script block", async () => {
    const definition = await r.lsp({ action: "definition", file: "site/index.html", line: 10, symbol: "greet" });
    expect(definition.text).toBe('site/index.html:9:14: function greet(name) { return "hi " + name; }');
    const references = await r.lsp({ action: "references", file: "site/index.html", line: 9, symbol: "greet" });
    expect(places(references.data)).toEqual(["site/index.html:10", "site/index.html:9"]);
  });

  test("hover documents an element", async () => {
    const a = await r.lsp({ action: "hover", file: "site/index.html", line: 7, symbol: "main#1" });
    expect(a.text).toContain("The main element represents the main content of the body of a document or application.");
  });

  test("symbols outline the document", async () => {
    const a = await r.lsp({ action: "symbols", file: "site/index.html" });
    expect(a.text).toMatch(/^site\/index\.html:7:(\d+:)? +field main#app\.card( \(in body\))?$/m);
    expect(a.text).toMatch(/^site\/index\.html:9:(\d+:)? +function greet$/m);
  });

  test("diagnostics of an embedded script", async () => {
    const a = await r.lsp({ action: "diagnostics", file: "site/broken.html" });
    expect(a.text).toContain("site/broken.html:5: error: ',' expected.");
  });

  test("diagnostics on write", async () => {
    const outcome = await r.write({ "site/index.html": "<!DOCTYPE html>\n<html>\n<body>\n  <style>\n    .x { color: red;; colr }\n  </style>\n</body>\n</html>\n" });
    expect(outcome.new).toContainEqual(expect.objectContaining({ path: "site/index.html", line: 5, source: "css" }));
  });
});

describe("json (vscode-json-language-server, a schema the file names)", () => {
  test("definition and references: the server has none, and says what it offers", async () => {
    for (const action of ["definition", "references"]) {
      const a = await r.lsp({ action, file: "site/data.json", line: 3, symbol: "name" });
      expect(a.text).toBe(`The json server does not offer ${action}. It offers hover, symbols.`);
    }
  });

  test("hover gives the schema's description", async () => {
    const a = await r.lsp({ action: "hover", file: "site/data.json", line: 3, symbol: "name" });
    expect(a.text).toContain("The package's name");
  });

  test("symbols of a document", async () => {
    const a = await r.lsp({ action: "symbols", file: "site/data.json" });
    expect(a.text).toMatch(/^site\/data\.json:3:(\d+:)? +string name$/m);
    expect(a.text).toMatch(/^site\/data\.json:4:(\d+:)? +number port$/m);
  });

  test("diagnostics: a schema violation", async () => {
    const a = await r.lsp({ action: "diagnostics", file: "site/bad.json" });
    expect(a.text).toBe('site/bad.json:3: warning: Incorrect type. Expected "integer".');
  });

  test("diagnostics on write: a syntax error", async () => {
    const outcome = await r.write({ "site/data.json": '{\n  "name": "site",\n  "port": [1, 2\n}\n' });
    expect(outcome.new).toContainEqual(expect.objectContaining({ path: "site/data.json", line: 4, severity: "error", message: "Expected comma" }));
  });
});

describe("php (intelephense)", () => {
  test("definition of a method in another file (the first query waits for indexing)", async () => {
    const a = await r.lsp({ action: "definition", file: "php/src/main.php", line: 6, symbol: "greet" });
    expect(a.text).toMatch(/^php\/src\/Greeter\.php:8:(\d+:)? +public function greet\(string \$name\): string$/);
  });

  test("references across files", async () => {
    const a = await r.lsp({ action: "references", file: "php/src/Greeter.php", line: 8, symbol: "greet" });
    expect(places(a.data)).toEqual(["php/src/Greeter.php:8", "php/src/main.php:6"]);
  });

  test("hover shows the class and its doc comment", async () => {
    const a = await r.lsp({ action: "hover", file: "php/src/main.php", line: 5, symbol: "Greeter" });
    expect(a.text).toContain("Greets people.");
  });

  test("symbols of a file, and a $variable addressed by its name", async () => {
    const a = await r.lsp({ action: "symbols", file: "php/src/Greeter.php" });
    expect(a.text).toMatch(/^php\/src\/Greeter\.php:6:(\d+:)? +class Greeter$/m);
    expect(a.text).toMatch(/^php\/src\/Greeter\.php:8:(\d+:)? +method greet( \(in Greeter\))?$/m);
    const variable = await r.lsp({ action: "definition", file: "php/src/Greeter.php", line: 10, symbol: "$name" });
    expect(variable.text).toMatch(/^php\/src\/Greeter\.php:8:(\d+:)? +public function greet\(string \$name\): string$/);
  });

  test("diagnostics", async () => {
    const a = await r.lsp({ action: "diagnostics", file: "php/src/broken.php" });
    expect(a.text).toBe("php/src/broken.php:5: error P1010: Undefined function 'App\\missing_function'.");
  });

  test("diagnostics on write", async () => {
    const outcome = await r.write({ "php/src/main.php": '<?php\n\nnamespace App;\n\n$g = new Greeter();\necho $g->greet("x");\necho nowhere();\n' });
    expect(outcome.new).toEqual([expect.objectContaining({ path: "php/src/main.php", line: 7, severity: "error", code: "P1010" })]);
  });
});
