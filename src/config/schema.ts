// The run config the harness passes to `sidecar serve --config run.json`, as a valibot schema.
import * as v from "valibot";
import { TIERS } from "../tool/tier.ts";
import { bridgeSettings } from "./resources/bridge.ts";
import { debugAdapterSettings } from "./resources/debug-adapters.ts";
import { kernelSettings } from "./resources/kernels.ts";
import { languageServerSettings } from "./resources/language-servers.ts";
import { parserSettings } from "./resources/parser.ts";
import { questionSettings } from "./resources/questions.ts";
import { configObject, nonEmptyString } from "./resources/shared.ts";
import { vibeSettings } from "./resources/vibe.ts";

/** `host:port`, `[v6]:port` or a bare port. */
export const listenAddress = v.pipe(
  v.string("expected a listen address like 127.0.0.1:0"),
  v.regex(/^(?:(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?\d{1,5}$/, "expected a listen address like 127.0.0.1:0"),
);

const surfaceSettings = configObject({
  tiers: v.pipe(
    v.array(v.picklist(TIERS, `expected one of ${TIERS.join(", ")}`), "expected a list of tiers"),
    v.minLength(1, "expected at least one tier"),
  ),
  /** A fixed bearer token for this surface; minted (32 random bytes) when absent. */
  token: v.optional(
    v.pipe(
      v.string("expected a token string"),
      v.minLength(16, "expected a token of at least 16 characters"),
      // It travels in an Authorization header and the operator page's cookie: a space or `;` never matched.
      v.regex(/^[A-Za-z0-9._~+/=-]+$/, "expected a token of letters, digits and . _ ~ + / = - only (it travels in a header and a cookie)"),
    ),
  ),
});

export const resourcesSchema = configObject({
  parser: v.optional(parserSettings),
  languageServers: v.optional(languageServerSettings),
  debugAdapters: v.optional(debugAdapterSettings),
  kernels: v.optional(kernelSettings),
  questions: v.optional(questionSettings),
  vibe: v.optional(vibeSettings),
  bridge: v.optional(bridgeSettings),
});

export const runConfigSchema = configObject({
  /** The checkout this run works on; every path a tool receives stays inside it. */
  workdir: v.optional(nonEmptyString("a directory path")),
  /** The conversation id; the debug tool needs one. */
  conversation: v.optional(nonEmptyString("a conversation id")),
  listen: v.optional(listenAddress),
  /** Where per-run state (worker results, logs) is kept; default a temp directory. */
  stateDir: v.optional(nonEmptyString("a directory path")),
  surfaces: v.optional(v.record(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_-]*$/, "expected a lower-case surface name")), surfaceSettings)),
  resources: v.optional(resourcesSchema),
});

export type RunConfig = v.InferOutput<typeof runConfigSchema>;
export type Resources = v.InferOutput<typeof resourcesSchema>;
export type SurfaceSettings = v.InferOutput<typeof surfaceSettings>;
