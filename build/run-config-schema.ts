// Writes docs/run-config.schema.json from the valibot schema: `bun build/run-config-schema.ts`.
// test/config/json-schema.test.ts fails when the file and the schema differ.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runConfigJsonSchemaText } from "../src/config/json-schema.ts";

export const SCHEMA_FILE = join(import.meta.dir, "..", "docs", "run-config.schema.json");

if (import.meta.main) {
  writeFileSync(SCHEMA_FILE, runConfigJsonSchemaText());
  console.log(`wrote ${SCHEMA_FILE}`);
}
