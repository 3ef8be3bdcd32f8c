// Settings of the tool bridge: where tool calls made inside a kernel go back to the harness.
import * as v from "valibot";
import { configObject, httpUrl } from "./shared.ts";

export const bridgeSettings = configObject({
  url: httpUrl,
  /** Sent as a bearer token to the harness, when it wants one. */
  token: v.optional(v.string()),
});
export type BridgeSettings = v.InferOutput<typeof bridgeSettings>;
