// The run config's JSON Schema (docs/run-config.schema.json), generated from the valibot schema so it never drifts.
import { toJsonSchema, type ConversionConfig, type JsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";
import { runConfigSchema, switchableResources } from "./schema.ts";

const CONVERSION: ConversionConfig = {
  target: "draft-07",
  typeMode: "ignore",
  // Checks that have no JSON Schema form (an http(s) URL, "at least one worker tier") stay the sidecar's.
  errorMode: "ignore",
  overrideSchema: ({ valibotSchema }) => {
    const switchable = switchableResources.get(valibotSchema as v.GenericSchema);
    if (!switchable) return undefined;
    return { description: switchable.description, anyOf: [{ const: false }, convert(switchable.settings)] };
  },
};

function convert(schema: v.GenericSchema): JsonSchema {
  const { $schema: _drop, ...rest } = toJsonSchema(schema, CONVERSION);
  return rest;
}

export function runConfigJsonSchema(): JsonSchema {
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "sidecar run config",
    description: "The run config of `sidecar serve --config FILE` (docs/config.md).",
    ...convert(runConfigSchema),
  };
}

/** The file's text: what `bun build/run-config-schema.ts` writes and test/config/json-schema.test.ts compares. */
export function runConfigJsonSchemaText(): string {
  return `${JSON.stringify(runConfigJsonSchema(), null, 2)}\n`;
}
