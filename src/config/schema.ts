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

/** A bearer token given rather than minted: in the config, a token file or the environment. */
export const surfaceToken = v.pipe(
  v.string("expected a token string"),
  v.minLength(16, "expected a token of at least 16 characters"),
  // It travels in an Authorization header: a space or `;` never matched.
  v.regex(/^[A-Za-z0-9._~+/=-]+$/, "expected a token of letters, digits and . _ ~ + / = - only (it travels in an HTTP header)"),
);

const surfaceSettings = configObject({
  tiers: v.pipe(
    v.array(v.picklist(TIERS, `expected one of ${TIERS.join(", ")}`), "expected a list of tiers"),
    v.minLength(1, "expected at least one tier"),
  ),
  /** A fixed bearer token for this surface; minted (32 random bytes) when absent. */
  token: v.optional(surfaceToken),
});

const FALSE = v.literal(false);
const notSettings = v.custom<never>(() => false, "expected its settings as an object ({} takes the defaults), or false to leave it out");
/** The settings schema behind each switchable resource, for the JSON Schema (src/config/json-schema.ts). */
export const switchableResources = new WeakMap<v.GenericSchema, { settings: v.GenericSchema; description: string }>();

/**
 * A resource's settings, or `false` to leave out a resource the embedded defaults would connect.
 * Chosen by the value (not a union), so a mistake reads as the settings' own error, by path.
 */
function switchable<T extends v.GenericSchema>(settings: T, description: string) {
  const schema = v.lazy((input: unknown) => (input === false ? FALSE : typeof input === "object" && input !== null && !Array.isArray(input) ? settings : notSettings));
  switchableResources.set(schema, { settings, description });
  return v.optional(schema as v.GenericSchema<v.InferInput<T> | false, v.InferOutput<T> | false>);
}

export const resourcesSchema = configObject({
  parser: switchable(parserSettings, "The tree-sitter parser: ast_grep, ast_edit, resolve. Connected by default."),
  languageServers: switchable(languageServerSettings, "Language servers: lsp, lsp_rename. Connected by default."),
  debugAdapters: switchable(debugAdapterSettings, "Debug adapters: debug (needs a conversation). Connected by default."),
  kernels: switchable(kernelSettings, "Python and JavaScript kernels: eval. Connected by default."),
  questions: switchable(questionSettings, "The question port: ask_user (needs a space). By default the operator page answers, in space \"local\"."),
  vibe: switchable(vibeSettings, "Background workers: vibe_*. Not connected by default."),
  bridge: switchable(bridgeSettings, "Where eval's tool() calls go back to the harness. Not connected by default."),
});

/**
 * Whether the harness's user trusts the checkout, as an editor asks. Untrusted ("none", the
 * default), nothing the checkout chose is run: no server, checker, adapter or interpreter from
 * inside the workdir, and servers start with their workspace-code features off.
 */
const WORKSPACE_TRUST = ["workspace", "none"] as const;
export type WorkspaceTrust = (typeof WORKSPACE_TRUST)[number];

const described = <T extends v.GenericSchema>(schema: T, text: string) => v.pipe(schema, v.description(text));

export const runConfigSchema = configObject({
  /** Editors' schema reference (docs/run-config.schema.json); ignored by the sidecar. */
  $schema: v.optional(described(v.string("expected the JSON Schema's URL or path as a string"), "The JSON Schema this file follows; ignored by the sidecar.")),
  workdir: v.optional(described(nonEmptyString("a directory path"), "The checkout this run works on; every path a tool receives stays inside it. Default: the current directory.")),
  conversation: v.optional(described(nonEmptyString("a conversation id"), 'The conversation id; the debug tool needs one. Default: "local".')),
  listen: v.optional(described(listenAddress, "HOST:PORT to listen on; port 0 picks a free one. Default: 127.0.0.1:0.")),
  trust: v.optional(
    described(
      v.picklist(WORKSPACE_TRUST, 'expected "workspace" (the user trusts this checkout) or "none"'),
      'Whether the user trusts this checkout: "workspace" lets servers, checkers and interpreters from inside it run. Default: "none".',
    ),
  ),
  stateDir: v.optional(described(nonEmptyString("a directory path"), "Where per-run state (worker results, logs) is kept, relative to the workdir. Default: a temporary directory.")),
  surfaces: v.optional(
    described(
      v.record(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_-]*$/, "expected a lower-case surface name")), surfaceSettings),
      "Surface name → {tiers, token?}, merged over the defaults: default (read, write, exec), plan and explore (read).",
    ),
  ),
  resources: v.optional(described(resourcesSchema, "The live resources this run has, merged over the embedded defaults; false leaves one out.")),
});

export type RunConfig = v.InferOutput<typeof runConfigSchema>;
export type Resources = v.InferOutput<typeof resourcesSchema>;
export type SurfaceSettings = v.InferOutput<typeof surfaceSettings>;
/** The resources a run connects: what a config's `false` left out is absent. */
export type ConnectedResources = { [K in keyof Resources]?: Exclude<Resources[K], false> };
