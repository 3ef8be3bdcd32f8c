// The embedded defaults, and how a run config merges over them: every resource a plain checkout can use.
import type { RunConfig } from "./schema.ts";

/** The conversation, and the question space on the operator page, of a run nobody named. */
const LOCAL = "local";

/**
 * The embedded defaults for local use: the current directory, every resource a plain checkout can
 * use connected (parser, language servers, debugger for conversation `local`, kernels), and
 * questions in space `local` answered on the sidecar's own operator page.
 */
export function embeddedDefaults(): RunConfig {
  return {
    conversation: LOCAL,
    resources: { parser: {}, languageServers: {}, debugAdapters: {}, kernels: {}, questions: { space: LOCAL } },
  };
}

/**
 * A run config as `serve` runs it: each default resource the config does not mention is connected
 * with its defaults, one it gives settings for gets them over the defaults', and `false` leaves one
 * out. So `{ "listen": "127.0.0.1:7777" }` serves every default tool. A config naming its own
 * question port gets no default space: that port's spaces are the harness's to name.
 */
export function withEmbeddedDefaults(config: RunConfig): RunConfig {
  const defaults = embeddedDefaults();
  const given = config.resources ?? {};
  const resources: Record<string, unknown> = { ...given };
  for (const [name, settings] of Object.entries(defaults.resources!)) {
    const own = given[name as keyof typeof given];
    if (own === false) continue;
    if (name === "questions" && own && "port" in own && own.port !== undefined) continue;
    resources[name] = { ...settings, ...(own ?? {}) };
  }
  return { ...config, conversation: config.conversation ?? defaults.conversation, resources: resources as RunConfig["resources"] };
}
