// Vue, Svelte, Astro, GraphQL and Prisma against their real servers, installed by the sidecar from
// npm: definition, references, hover, symbols, diagnostics and diagnostics on write, by line + symbol.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { languageRun, places, type LanguageRun } from "./language-run.ts";

const FILES = {
  "package.json": JSON.stringify({ name: "fixture", private: true, type: "module" }),
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, target: "es2022", module: "esnext", moduleResolution: "bundler", noEmit: true }, include: ["src"] }),
  "src/counter.ts": "/** Adds one to the count. */\nexport function increment(count: number): number {\n  return count + 1;\n}\n",
  "src/App.vue": '<script setup lang="ts">\nimport { increment } from "./counter";\n\nconst count = increment(1);\nconst label: string = `count ${count}`;\n</script>\n\n<template>\n  <p>{{ label }}</p>\n</template>\n',
  "src/Broken.vue": '<script setup lang="ts">\nconst total: number = "many";\n</script>\n\n<template>\n  <p>{{ total }}</p>\n</template>\n',
  "src/Counter.svelte": '<script lang="ts">\n  import { increment } from "./counter";\n\n  let count: number = increment(1);\n  const label = `count ${count}`;\n</script>\n\n<p>{label}</p>\n',
  "src/Broken.svelte": '<script lang="ts">\n  const total: number = "many";\n</script>\n\n<p>{total}</p>\n',
  "src/pages/index.astro": '---\nimport { increment } from "../counter";\n\nconst count = increment(1);\n---\n\n<p>{count}</p>\n',
  "src/pages/broken.astro": '---\nconst total: number = "many";\n---\n\n<p>{total}</p>\n',
  "api/.graphqlrc.yml": "schema: schema.graphql\ndocuments: '*.graphql'\n",
  "api/schema.graphql": '"""A person with an account."""\ntype User {\n  id: ID!\n  name: String\n}\n\ntype Query {\n  user(id: ID!): User\n}\n',
  "api/query.graphql": 'query Profile {\n  user(id: "1") {\n    name\n  }\n}\n',
  "api/broken.graphql": 'query Broken {\n  user(id: "1") {\n    email\n  }\n}\n',
  "db/schema.prisma":
    'datasource db {\n  provider = "sqlite"\n  url      = "file:dev.db"\n}\n\n/// A person with an account.\nmodel User {\n  id    Int    @id\n  posts Post[]\n}\n\nmodel Post {\n  id       Int  @id\n  author   User @relation(fields: [authorId], references: [id])\n  authorId Int\n}\n',
  "db/broken.prisma": "model Pet {\n  id    Int @id\n  owner Ownr\n}\n",
};

let r: LanguageRun;

// A first query waits for the server to start and analyse the project, slow on a loaded machine.
setDefaultTimeout(240_000);

beforeAll(async () => {
  r = await languageRun(["vue", "svelte", "astro", "graphql", "prisma"], FILES);
}, 600_000);

afterAll(async () => {
  await r?.dispose();
});

/** The same queries in each single-file-component language: an imported TypeScript function. */
describe.each([
  ["vue (typescript-language-server with @vue/typescript-plugin)", "src/App.vue", "src/Broken.vue", 2],
  ["svelte (svelte-language-server)", "src/Counter.svelte", "src/Broken.svelte", 2],
  ["astro (@astrojs/language-server)", "src/pages/index.astro", "src/pages/broken.astro", 2],
] as const)("%s", (_, file, broken, importLine) => {
  test("definition of an imported function is in the .ts file", async () => {
    const a = await r.lsp({ action: "definition", file, line: 4, symbol: "increment" });
    expect(a.text).toMatch(/^src\/counter\.ts:2:(\d+:)? +export function increment\(count: number\): number \{$/);
  });

  test("references include the import and the call", async () => {
    const a = await r.lsp({ action: "references", file, line: 4, symbol: "increment" });
    expect(places(a.data)).toEqual(expect.arrayContaining([`${file}:${importLine}`, `${file}:4`, "src/counter.ts:2"]));
  });

  test("hover shows the signature and its doc comment", async () => {
    const a = await r.lsp({ action: "hover", file, line: 4, symbol: "increment" });
    expect(a.text).toContain("increment(count: number): number");
    expect(a.text).toContain("Adds one to the count.");
  });

  test("diagnostics are TypeScript's, in the component's own lines", async () => {
    const a = await r.lsp({ action: "diagnostics", file: broken });
    expect(a.text).toBe(`${broken}:2: error 2322: Type 'string' is not assignable to type 'number'.`);
  });
});

describe("symbols of a component", () => {
  test("vue: refused with what to do instead (tsserver gives no outline of a .vue file)", async () => {
    const a = await r.lsp({ action: "symbols", file: "src/App.vue" });
    expect(a.isError).toBe(true);
    expect(a.text).toStartWith("The vue server does not answer symbols: tsserver gives no outline of a .vue file; symbols with a query searches its names");
  });

  test("svelte and astro outline the script", async () => {
    const svelte = await r.lsp({ action: "symbols", file: "src/Counter.svelte" });
    expect(svelte.text).toMatch(/^src\/Counter\.svelte:4:(\d+:)? +variable count( \(in script\))?$/m);
    const astro = await r.lsp({ action: "symbols", file: "src/pages/index.astro" });
    expect(astro.text).toMatch(/^src\/pages\/index\.astro:4:(\d+:)? +variable count$/m);
  });

  test("diagnostics on write in a .vue file", async () => {
    const outcome = await r.write({ "src/App.vue": '<script setup lang="ts">\nimport { increment } from "./counter";\nconst count: string = increment(1);\n</script>\n' });
    expect(outcome.status).toBe("fresh");
    expect(outcome.new).toEqual([expect.objectContaining({ path: "src/App.vue", line: 3, severity: "error", code: "2322" })]);
  });
});

describe("graphql (graphql-language-service-cli, a .graphqlrc.yml naming the schema)", () => {
  test("definition of a field is in the schema (the first query waits for the schema to load)", async () => {
    const query = await r.lsp({ action: "definition", file: "api/query.graphql", line: 2, symbol: "user" });
    expect(query.text).toMatch(/^api\/schema\.graphql:8:(\d+:)? +user\(id: ID!\): User$/);
    const field = await r.lsp({ action: "definition", file: "api/query.graphql", line: 3, symbol: "name" });
    expect(field.text).toMatch(/^api\/schema\.graphql:4:(\d+:)? +name: String$/);
  });

  test("references: the server has none, and says what it offers", async () => {
    const a = await r.lsp({ action: "references", file: "api/query.graphql", line: 3, symbol: "name" });
    expect(a.isError).toBe(true);
    expect(a.text).toBe("The graphql server does not offer references. It offers definition, hover, symbols.");
  });

  test("hover gives the field's type", async () => {
    const a = await r.lsp({ action: "hover", file: "api/query.graphql", line: 3, symbol: "name" });
    expect(a.text).toContain("User.name: String");
  });

  test("symbols of the schema", async () => {
    const a = await r.lsp({ action: "symbols", file: "api/schema.graphql" });
    expect(a.text).toMatch(/^api\/schema\.graphql:1:(\d+:)? +class User$/m);
    expect(a.text).toMatch(/^api\/schema\.graphql:8:(\d+:)? +method user( \(in Query\))?$/m);
  });

  test("diagnostics: a field the schema does not have", async () => {
    const a = await r.lsp({ action: "diagnostics", file: "api/broken.graphql" });
    expect(a.text).toBe('api/broken.graphql:3: error: Cannot query field "email" on type "User".');
  });

  test("diagnostics on write", async () => {
    const outcome = await r.write({ "api/query.graphql": 'query Profile {\n  user(id: "1") {\n    nickname\n  }\n}\n' });
    expect(outcome.new).toEqual([expect.objectContaining({ path: "api/query.graphql", line: 3, severity: "error", message: 'Cannot query field "nickname" on type "User". Did you mean "name"?' })]);
  });
});

describe("prisma (@prisma/language-server)", () => {
  test("definition of a relation's model", async () => {
    const a = await r.lsp({ action: "definition", file: "db/schema.prisma", line: 14, symbol: "User" });
    expect(a.text).toMatch(/^db\/schema\.prisma:7:(\d+:)? +model User \{$/);
  });

  test("references of a model", async () => {
    const a = await r.lsp({ action: "references", file: "db/schema.prisma", line: 14, symbol: "User" });
    expect(places(a.data)).toEqual(["db/schema.prisma:14", "db/schema.prisma:7"]);
  });

  test("hover shows the model and its doc comment", async () => {
    const a = await r.lsp({ action: "hover", file: "db/schema.prisma", line: 14, symbol: "User" });
    expect(a.text).toContain("model User {");
    expect(a.text).toContain("A person with an account.");
  });

  test("symbols of the schema", async () => {
    const a = await r.lsp({ action: "symbols", file: "db/schema.prisma" });
    expect(a.text).toBe("db/schema.prisma:1: struct db\ndb/schema.prisma:7: class User\ndb/schema.prisma:12: class Post");
  });

  test("diagnostics: a type that does not exist", async () => {
    const a = await r.lsp({ action: "diagnostics", file: "db/broken.prisma" });
    expect(a.text).toContain('db/broken.prisma:3: error: Type "Ownr" is neither a built-in type, nor refers to another model, composite type, or enum.');
  });

  test("diagnostics on write", async () => {
    const outcome = await r.write({ "db/schema.prisma": "model User {\n  id  Int @id\n  pet Pett\n}\n" });
    expect(outcome.new).toEqual([expect.objectContaining({ path: "db/schema.prisma", line: 3, severity: "error", source: "Prisma" })]);
  });
});
