// Settings of the debug-session supervisor resource (debug).
import * as v from "valibot";
import { configObject } from "./shared.ts";

/** The debug adapters the catalog has (src/dap/catalog.ts), by the id a config overrides them with. */
export const ADAPTER_IDS = ["dart", "debugpy", "lldb", "delve", "node"] as const;
export type AdapterId = (typeof ADAPTER_IDS)[number];

const adapterOverride = configObject({
  /** Replaces the catalog's command for this adapter, e.g. ["/opt/llvm/bin/lldb-dap"]. */
  command: v.optional(
    v.pipe(
      v.array(v.pipe(v.string("expected a command argument string"), v.minLength(1, "expected a non-empty argument"))),
      v.minLength(1, "expected the command as a non-empty argv list"),
    ),
  ),
});

export const debugAdapterSettings = configObject({
  /** A session's hard lifetime; default 1800 (30 minutes). Tests shorten it. */
  ttlSeconds: v.optional(
    v.pipe(v.number("expected seconds as a number"), v.minValue(1, "expected at least 1 second"), v.maxValue(1800, "expected at most 1800 seconds: the session TTL is a hard limit of 30 minutes")),
  ),
  /** How long a control call waits for the next stop before answering "running"; default 15. */
  stopWaitSeconds: v.optional(
    v.pipe(v.number("expected seconds as a number"), v.minValue(0.1, "expected at least 0.1 seconds"), v.maxValue(1800, "expected at most 1800 seconds (the session's whole TTL)")),
  ),
  adapters: v.optional(configObject(Object.fromEntries(ADAPTER_IDS.map((id) => [id, v.optional(adapterOverride)])) as Record<(typeof ADAPTER_IDS)[number], v.OptionalSchema<typeof adapterOverride, undefined>>)),
});
export type DebugAdapterSettings = v.InferOutput<typeof debugAdapterSettings>;
