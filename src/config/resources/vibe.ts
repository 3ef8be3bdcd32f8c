// Settings of the worker roster resource (vibe_*).
import * as v from "valibot";

export const vibeSettings = v.strictObject({});
export type VibeSettings = v.InferOutput<typeof vibeSettings>;
