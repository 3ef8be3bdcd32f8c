// The runtime calls behind the idle reclaim (src/platform/gc.ts) exist in the Bun this repo runs on.
import { describe, expect, test } from "bun:test";

describe("shrinkFootprint (src/platform/gc.ts)", () => {
  test("the runtime still offers Bun.shrink (typed as deprecated; without it the deep reclaim is a plain collection)", () => {
    expect(typeof (Bun as unknown as { shrink?: unknown }).shrink).toBe("function");
  });
});
