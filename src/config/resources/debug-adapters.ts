// Settings of the debug-session supervisor resource (debug).
import * as v from "valibot";

export const debugAdapterSettings = v.strictObject({});
export type DebugAdapterSettings = v.InferOutput<typeof debugAdapterSettings>;
