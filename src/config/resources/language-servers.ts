// Settings of the language-server supervisor resource (lsp, lsp_rename): catalog overrides and timings.
import { isAbsolute } from "node:path";
import * as v from "valibot";
import { configObject, nonEmptyString } from "./shared.ts";

const stringList = (what: string) => v.array(nonEmptyString(what), `expected a list of ${what}s`);

/** One catalog entry's overrides; a new id adds a server, a known id changes only the keys given. */
const serverOverride = configObject({
  /** The executable: a bare name (looked up in PATH, and the root's node_modules/.bin when the workspace is trusted) or an absolute path. */
  command: v.optional(nonEmptyString("a command")),
  args: v.optional(stringList("argument")),
  languages: v.optional(stringList("language id")),
  /** File extensions with the dot, e.g. ".ts". */
  extensions: v.optional(stringList("file extension")),
  rootMarkers: v.optional(stringList("root marker file name")),
  initializationOptions: v.optional(v.record(v.string(), v.unknown())),
  /** Leaves the server out of this run entirely. */
  disabled: v.optional(v.boolean("expected true or false")),
});

export const languageServerSettings = configObject({
  /** "auto": a missing server the catalog has on npm is installed on first use; "never": only what is installed already. */
  install: v.optional(v.picklist(["auto", "never"], 'expected "auto" or "never"')),
  /** Where installed servers are kept (default $XDG_CACHE_HOME/sidecar/servers, else ~/.cache/sidecar/servers). */
  cacheDir: v.optional(v.pipe(nonEmptyString("a directory path"), v.check((path) => isAbsolute(path), "expected an absolute directory path"))),
  servers: v.optional(v.record(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_-]*$/, "expected a lower-case server id")), serverOverride)),
  /** Servers unused this long are shut down (they restart on the next use). */
  // Timers wait at most 2^31 ms (24.8 days); a longer one fired after 1 ms, so the bounds are a day.
  idleShutdownSeconds: v.optional(v.pipe(v.number("expected seconds as a number"), v.minValue(1, "expected at least 1 second"), v.maxValue(86_400, "expected at most 86400 seconds (a day)"))),
  /** How long a server gets to answer `initialize`. */
  initializeTimeoutSeconds: v.optional(v.pipe(v.number("expected seconds as a number"), v.minValue(1, "expected at least 1 second"), v.maxValue(3600, "expected at most 3600 seconds (an hour)"))),
});
export type LanguageServerSettings = v.InferOutput<typeof languageServerSettings>;
