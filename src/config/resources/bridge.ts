// Settings of the tool bridge: where tool calls made inside a kernel go back to the harness.
import * as v from "valibot";
import { httpUrl } from "./shared.ts";

export const bridgeSettings = v.strictObject({
  url: httpUrl,
  /** Sent as a bearer token to the harness, when it wants one. */
  token: v.optional(v.string()),
});
export type BridgeSettings = v.InferOutput<typeof bridgeSettings>;
