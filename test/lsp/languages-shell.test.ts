// Bash, YAML, Dockerfile and SQL against their real servers, installed by the sidecar from npm:
// definition, references, hover, symbols, diagnostics and diagnostics on write, by line + symbol.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { requireBinary } from "./fixtures.ts";
import { languageRun, places, type LanguageRun } from "./language-run.ts";

const SCHEMA = JSON.stringify({
  type: "object",
  properties: {
    service: {
      type: "object",
      description: "The service to run.",
      properties: { name: { type: "string", description: "The service's name, as DNS sees it." }, retries: { type: "integer" } },
    },
  },
});

const FILES = {
  "scripts/lib.sh": '#!/usr/bin/env bash\n# Greets someone by name.\ngreet() {\n  local name="$1"\n  echo "hello $name"\n}\n\nCOUNT=3\n',
  "scripts/main.sh": '#!/usr/bin/env bash\nsource ./lib.sh\ngreet world\necho "$COUNT"\ngreet again\n',
  "scripts/warn.sh": '#!/usr/bin/env bash\nif [ "$undefined_flag" = 1 ]; then\n  echo on\nfi\n',
  "config/schema.json": SCHEMA,
  "config/app.yaml": "# yaml-language-server: $schema=./schema.json\ndefaults: &defaults\n  retries: 3\nservice:\n  name: api\n  <<: *defaults\n",
  "config/bad.yaml": "# yaml-language-server: $schema=./schema.json\nservice:\n  name: api\n  retries: many\n",
  Dockerfile: "FROM node:20 AS build\nARG VERSION=1\nWORKDIR /app\nRUN echo $VERSION\n\nFROM nginx\nCOPY --from=build /app /usr/share/nginx/html\n",
  "docker/broken.dockerfile": "FROM alpine\nEXPOSE notaport\n",
  "db/schema.sql": "CREATE TABLE users (\n  id INTEGER PRIMARY KEY,\n  name TEXT\n);\n\nSELECT id, name FROM users WHERE id = 1;\n",
  "db/broken.sql": "SELECT id name FROM users WHERE;\n",
};

let r: LanguageRun;

// A first query waits for the server to start and analyse the project, slow on a loaded machine.
setDefaultTimeout(240_000);

beforeAll(async () => {
  requireBinary("shellcheck", "apt-get install shellcheck");
  r = await languageRun(["bash", "yaml", "dockerfile", "sql"], FILES);
}, 600_000);

afterAll(async () => {
  await r?.dispose();
});

describe("bash (bash-language-server, shellcheck)", () => {
  test("definition of a function from the script that sources its file (the first query waits for the workspace analysis)", async () => {
    const a = await r.lsp({ action: "definition", file: "scripts/main.sh", line: 3, symbol: "greet" });
    expect(a.text).toMatch(/^scripts\/lib\.sh:3:(\d+:)? +greet\(\) \{$/);
  });

  test("references across the sourcing script", async () => {
    const a = await r.lsp({ action: "references", file: "scripts/lib.sh", line: 3, symbol: "greet" });
    expect(places(a.data)).toEqual(["scripts/lib.sh:3", "scripts/main.sh:3", "scripts/main.sh:5"]);
  });

  test("hover shows where the function is defined and its comment", async () => {
    const a = await r.lsp({ action: "hover", file: "scripts/main.sh", line: 3, symbol: "greet" });
    expect(a.text).toContain("Function: **greet** - *defined in lib.sh*");
    expect(a.text).toContain("Greets someone by name.");
  });

  test("symbols of a file", async () => {
    const a = await r.lsp({ action: "symbols", file: "scripts/lib.sh" });
    expect(a.text).toMatch(/^scripts\/lib\.sh:3:(\d+:)? +function greet$/m);
    expect(a.text).toMatch(/^scripts\/lib\.sh:8:(\d+:)? +variable COUNT$/m);
  });

  test("diagnostics are shellcheck's", async () => {
    const a = await r.lsp({ action: "diagnostics", file: "scripts/warn.sh" });
    expect(a.text).toBe("scripts/warn.sh:2: warning SC2154: undefined_flag is referenced but not assigned.");
  });

  test("diagnostics on write: a new finding is reported", async () => {
    const outcome = await r.write({ "scripts/main.sh": '#!/usr/bin/env bash\nsource ./lib.sh\ngreet world\necho "$missing_var"\n' });
    expect(outcome.status).toBe("fresh");
    expect(outcome.new).toEqual([expect.objectContaining({ path: "scripts/main.sh", line: 4, severity: "warning", code: "SC2154", source: "shellcheck" })]);
  });
});

describe("yaml (yaml-language-server, a schema named by the file)", () => {
  test("definition of an alias is its anchor's node", async () => {
    const a = await r.lsp({ action: "definition", file: "config/app.yaml", line: 6, symbol: "defaults" });
    expect(a.text).toMatch(/^config\/app\.yaml:3:(\d+:)? +retries: 3$/);
  });

  test("references: the server has none, and says what it offers", async () => {
    const a = await r.lsp({ action: "references", file: "config/app.yaml", line: 2, symbol: "defaults#2" });
    expect(a.isError).toBe(true);
    expect(a.text).toBe("The yaml server does not offer references. It offers definition, hover, symbols.");
  });

  test("hover gives the schema's description", async () => {
    const a = await r.lsp({ action: "hover", file: "config/app.yaml", line: 5, symbol: "name" });
    expect(a.text).toContain("The service's name, as DNS sees it.");
  });

  test("symbols of a file", async () => {
    const a = await r.lsp({ action: "symbols", file: "config/app.yaml" });
    expect(a.text).toMatch(/^config\/app\.yaml:4:(\d+:)? +module service$/m);
    expect(a.text).toMatch(/^config\/app\.yaml:5:(\d+:)? +string name( \(in service\))?$/m);
  });

  test("diagnostics: a schema violation", async () => {
    const a = await r.lsp({ action: "diagnostics", file: "config/bad.yaml" });
    expect(a.text).toBe('config/bad.yaml:4: error 0: Incorrect type. Expected "integer".');
  });

  test("diagnostics on write: a syntax error and a schema violation", async () => {
    await r.lsp({ action: "diagnostics", file: "config/app.yaml" });
    const outcome = await r.write({ "config/app.yaml": "# yaml-language-server: $schema=./schema.json\nservice:\n  name: 42\n  tags: [a, b\n" });
    expect(outcome.status).toBe("fresh");
    const messages = outcome.new.map((d) => `${d.line}: ${d.message}`);
    expect(messages).toContainEqual(expect.stringMatching(/^5: Flow sequence in block collection must be sufficiently indented and end with a \]/));
  });
});

describe("dockerfile (dockerfile-language-server-nodejs)", () => {
  test("definition of a build stage and of an ARG", async () => {
    const stage = await r.lsp({ action: "definition", file: "Dockerfile", line: 7, symbol: "build" });
    expect(stage.text).toMatch(/^Dockerfile:1:(\d+:)? +FROM node:20 AS build$/);
    const arg = await r.lsp({ action: "definition", file: "Dockerfile", line: 4, symbol: "$VERSION" });
    expect(arg.text).toMatch(/^Dockerfile:2:(\d+:)? +ARG VERSION=1$/);
  });

  test("references: the server has none, and says what it offers", async () => {
    const a = await r.lsp({ action: "references", file: "Dockerfile", line: 2, symbol: "VERSION" });
    expect(a.text).toBe("The dockerfile server does not offer references. It offers definition, hover, symbols.");
  });

  test("hover documents an instruction", async () => {
    const a = await r.lsp({ action: "hover", file: "Dockerfile", line: 3, symbol: "WORKDIR" });
    expect(a.text).toContain("Set the working directory for any subsequent");
  });

  test("symbols list the instructions", async () => {
    const a = await r.lsp({ action: "symbols", file: "Dockerfile" });
    expect(a.text).toMatch(/^Dockerfile:1:(\d+:)? +function FROM$/m);
    expect(a.text).toMatch(/^Dockerfile:7:(\d+:)? +function COPY$/m);
  });

  test("diagnostics in a *.dockerfile", async () => {
    const a = await r.lsp({ action: "diagnostics", file: "docker/broken.dockerfile" });
    expect(a.text).toBe("docker/broken.dockerfile:2: error 24: Invalid containerPort: notaport");
  });

  test("diagnostics on write", async () => {
    const outcome = await r.write({ Dockerfile: "FROM node:20 AS build\nFROMM x\n" });
    expect(outcome.new).toEqual([expect.objectContaining({ path: "Dockerfile", line: 2, severity: "error", message: "Unknown instruction: FROMM" })]);
  });
});

describe("sql (sql-language-server; style lints off)", () => {
  test.each(["definition", "references", "hover"])("%s: the server offers none, and says diagnostics still work", async (action) => {
    const a = await r.lsp({ action, file: "db/schema.sql", line: 6, symbol: "users" });
    expect(a.isError).toBe(true);
    expect(a.text).toBe(`The sql server does not offer ${action}. It offers none of definition, references, hover or symbols; diagnostics still work.`);
  });

  test("symbols: the same", async () => {
    const a = await r.lsp({ action: "symbols", file: "db/schema.sql" });
    expect(a.text).toBe("The sql server does not offer symbols. It offers none of definition, references, hover or symbols; diagnostics still work.");
  });

  test("diagnostics are syntax errors, not style", async () => {
    const clean = await r.lsp({ action: "diagnostics", file: "db/schema.sql" });
    expect(clean.text).toBe("No errors or warnings in db/schema.sql.");
    const broken = await r.lsp({ action: "diagnostics", file: "db/broken.sql" });
    expect(broken.text).toStartWith('db/broken.sql:1: error: Expected "!", "$",');
  });

  test("diagnostics on write", async () => {
    const outcome = await r.write({ "db/schema.sql": "SELECT FROM WHERE;\n" });
    expect(outcome.new).toEqual([expect.objectContaining({ path: "db/schema.sql", line: 1, severity: "error", source: "sql" })]);
  });
});

describe("bash without shellcheck on PATH", () => {
  let bare: LanguageRun;
  let savedPath: string | undefined;

  beforeAll(async () => {
    // The server runs on the sidecar's Bun by absolute path: it needs nothing from PATH but shellcheck.
    savedPath = process.env.PATH;
    process.env.PATH = "/nonexistent";
    bare = await languageRun(["bash"], { "warn.sh": FILES["scripts/warn.sh"], "lib.sh": FILES["scripts/lib.sh"] });
  }, 600_000);

  afterAll(async () => {
    await bare?.dispose();
    process.env.PATH = savedPath;
  });

  const MISSING = "The bash server's diagnostics come from shellcheck, which is not on PATH, so nothing was checked: install it (apt-get install shellcheck";

  test("diagnostics are refused, not answered as a clean file", async () => {
    const a = await bare.lsp({ action: "diagnostics", file: "warn.sh" });
    expect(a.isError).toBe(true);
    expect(a.text).toStartWith(MISSING);
  });

  test("diagnostics on write say the file was not checked", async () => {
    const outcome = await bare.write({ "warn.sh": '#!/usr/bin/env bash\necho "$other_flag"\n' });
    expect(outcome.status).toBe("unsupported");
    expect(outcome.text).toContain(MISSING);
  });

  test("its other actions work, and status says what its diagnostics need", async () => {
    const a = await bare.lsp({ action: "symbols", file: "lib.sh" });
    expect(a.text).toMatch(/^lib\.sh:3:(\d+:)? +function greet$/m);
    const status = await bare.lsp({ action: "status" });
    expect(status.text.split("\n").find((line) => line.startsWith("bash"))).toMatch(/running — diagnostics need shellcheck, which is not on PATH \(apt-get install shellcheck/);
  });
});
