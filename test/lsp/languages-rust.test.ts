// Rust against the real rust-analyzer from Debian 12 (apt: rust-web-analyzer, cargo-web), untrusted
// (build scripts and proc macros off, no cargo check): definition, references, hover, symbols,
// diagnostics and diagnostics on write, by line + symbol.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { requireBinary } from "./fixtures.ts";
import { languageRun, places, type LanguageRun } from "./language-run.ts";

const FILES = {
  "Cargo.toml": '[package]\nname = "shapes"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
  // Calls stay outside println!: without Debian's rust-web-src, std's macros do not expand.
  "src/main.rs": 'mod bad;\nmod shapes;\n\nuse shapes::Square;\n\nfn main() {\n    let square = Square { side: 2.0 };\n    let total = square.area() + f64::from(bad::wrong());\n    println!("{total}");\n}\n',
  "src/shapes.rs":
    "/// A square with sides of the given length.\npub struct Square {\n    pub side: f64,\n}\n\nimpl Square {\n    /// The area of the square.\n    pub fn area(&self) -> f64 {\n        self.side * self.side\n    }\n}\n",
  "src/bad.rs": "pub fn wrong() -> i32 {\n    1.5\n}\n",
};

let r: LanguageRun;
let savedPath: string | undefined;

// rust-analyzer loads the crate (cargo metadata, then indexing) before it answers: slow under load.
setDefaultTimeout(240_000);

beforeAll(async () => {
  // Debian's rust-analyzer and cargo, not a rustup proxy that may lack the component.
  savedPath = process.env.PATH;
  process.env.PATH = "/usr/bin:/bin";
  requireBinary("rust-analyzer", "apt-get install rust-web-analyzer cargo-web");
  requireBinary("cargo", "apt-get install cargo-web");
  r = await languageRun([], FILES);
}, 600_000);

afterAll(async () => {
  await r?.dispose();
  process.env.PATH = savedPath;
});

/**
 * The answer once the server has loaded the crate. Until then the tool says so ("still indexing
 * (Fetching) … Try again", or the server's "content modified"), and an agent asks again, as here.
 */
async function settled(args: Record<string, unknown>): Promise<{ text: string; data: Record<string, unknown> }> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const a = await r.lsp(args);
    const loading = a.isError && /still indexing|content modified/.test(a.text);
    if (!loading || Date.now() > deadline) return a;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

describe("rust (rust-analyzer)", () => {
  test("definition of a method in another module", async () => {
    const a = await settled({ action: "definition", file: "src/main.rs", line: 8, symbol: "area" });
    expect(a.text).toMatch(/^src\/shapes\.rs:8:(\d+:)? +pub fn area\(&self\) -> f64 \{$/);
  });

  test("references across modules", async () => {
    const a = await settled({ action: "references", file: "src/shapes.rs", line: 8, symbol: "area" });
    expect(places(a.data)).toEqual(["src/main.rs:8", "src/shapes.rs:8"]);
  });

  test("hover shows the struct and its doc comment", async () => {
    const a = await settled({ action: "hover", file: "src/main.rs", line: 7, symbol: "Square" });
    expect(a.text).toContain("pub struct Square");
    expect(a.text).toContain("A square with sides of the given length.");
  });

  test("symbols of a module", async () => {
    const a = await settled({ action: "symbols", file: "src/shapes.rs" });
    // The outline as the server's hierarchy: members indented under their struct or impl.
    expect(a.text).toBe("src/shapes.rs:2: struct Square\nsrc/shapes.rs:3:   field side\nsrc/shapes.rs:6: object impl Square\nsrc/shapes.rs:8:   method area");
  });

  test("diagnostics: rust-analyzer's own type check", async () => {
    const a = await settled({ action: "diagnostics", file: "src/bad.rs" });
    expect(a.text).toBe("src/bad.rs:2: error E0308: expected i32, found f64");
  });

  test("diagnostics on write", async () => {
    const outcome = await r.write({ "src/shapes.rs": FILES["src/shapes.rs"].replace("self.side * self.side", "true") });
    expect(outcome.status).toBe("fresh");
    expect(outcome.new).toEqual([expect.objectContaining({ path: "src/shapes.rs", line: 9, severity: "error" })]);
  });
});
