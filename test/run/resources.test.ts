// The list of resources (src/run/resources.ts) against the run config: every resource the config can
// name is connected by exactly one descriptor, under one internal name of its own.
import { describe, expect, test } from "bun:test";
import { resourcesSchema, type ConnectedResources } from "../../src/config/schema.ts";
import { RESOURCES } from "../../src/run/resources.ts";

/** The config's resource keys, as the JSON Schema publishes them. */
function configKeys(): string[] {
  const object = resourcesSchema.pipe.find((item) => "entries" in item) as { entries: Record<string, unknown> };
  return Object.keys(object.entries).sort();
}

describe("the resources a run may have", () => {
  test("each resource key of the config is one descriptor's; bridge is read by the kernel's", () => {
    const described = RESOURCES.map((resource) => resource.configKey);
    expect(new Set(described).size).toBe(described.length);
    expect([...described, "bridge"].sort()).toEqual(configKeys());
    const kernel = RESOURCES.find((resource) => resource.name === "kernel")!;
    const bridge = { url: "http://127.0.0.1:9/bridge" };
    // Settings as the schema leaves them (defaults filled in); the kernel's own are not read here.
    const kernels = {} as ConnectedResources["kernels"];
    expect(kernel.settings({ kernels, bridge })).toEqual({ kernels, bridge });
    expect(kernel.settings({ bridge })).toBeUndefined(); // the bridge alone connects nothing
  });

  test("each has one internal name, and a config without it leaves it out", () => {
    const names = RESOURCES.map((resource) => resource.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain("syntax"); // the parser's, not its config key
    expect(names).not.toContain("parser");
    for (const resource of RESOURCES) expect(resource.settings({})).toBeUndefined();
  });
});
