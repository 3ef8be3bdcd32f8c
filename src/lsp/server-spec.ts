// The shape of a catalog entry: which files a server serves, its roots, how it starts, installs and runs untrusted.

/** How the root's whole-project check (`diagnostics "*"`) runs and how its output reads. */
export interface ProjectChecker {
  command: string;
  args: readonly string[];
  /** Which parser in checkers.ts reads the output. */
  format: "tsc" | "pyright-json" | "gcc" | "cargo-json" | "dart-machine" | "compile-commands";
  /** The checker's script inside the server's npm install, run when `command` is found nowhere else. */
  npmEntry?: string;
  /** Why the check runs the workspace's own code: in an untrusted workspace it does not run. */
  needsTrust?: string;
}

/** A server the sidecar installs itself from the npm registry, at pinned versions, and runs with its own Bun. */
export interface NpmInstall {
  /** The install's name in the cache, when several servers share one (html, css and json); else the server id. */
  name?: string;
  /** Exact versions installed together; the first gives the install its version (`<name>@<version>`). */
  packages: Readonly<Record<string, string>>;
  /** Versions forced on dependencies (npm `overrides`), where a published dependency range is broken. */
  overrides?: Readonly<Record<string, string>>;
  /** The server's script, relative to the install's node_modules. */
  entry: string;
}

/** What changes when the workspace is not trusted: its code-running features turned off (docs/lsp.md lists why). */
export interface UntrustedLaunch {
  /** Merged over the initialization options (objects key by key). */
  initializationOptions?: Record<string, unknown>;
  env?: Record<string, string>;
}

export interface ServerSpec {
  id: string;
  languages: readonly string[];
  /** With the dot: ".ts". */
  extensions: readonly string[];
  /** Whole file names served whatever their extension ("Dockerfile"); a trailing ".*" matches any suffix. */
  fileNames?: readonly string[];
  /** The LSP language id per extension or file name, where it is not `languages[0]`. */
  languageIds?: Readonly<Record<string, string>>;
  /** File names whose directory is a root of this server; the nearest one upward wins. "*.csproj" matches by suffix. */
  rootMarkers: readonly string[];
  /**
   * Files of this language stand alone (shell scripts, YAML, JSON): with no marker above a file, the
   * server's root is the workdir itself.
   */
  workdirRoot?: boolean;
  /** Its markers are every JavaScript project's (package.json): `status` lists a root only where this server's files are. */
  statusNeedsFiles?: boolean;
  /** Bare name (resolved via PATH, and node_modules/.bin when trusted) or an absolute path. */
  command: string;
  args: readonly string[];
  /**
   * Strings of the form "{{module:typescript/lib}}" are replaced by that path as resolved from the
   * server's own script (its install), so a server is pointed at its own copy, never the workspace's.
   */
  initializationOptions?: Record<string, unknown>;
  /**
   * How a server that analyses the workspace after start-up says it is done, where a first query
   * would otherwise be answered from a half-built index: its first work-done progress ending
   * (intelephense begins reporting only a moment after `initialized`), or a window/logMessage
   * matching `pattern` (bash-language-server reports no progress). Queries wait for it, as for
   * progress, at most INDEXING_WAIT_MS.
   */
  startupAnalysis?: { endsWith: "progress" } | { endsWith: "log"; pattern: string };
  /**
   * Answers textDocument/diagnostic without announcing it, and pushes in phases (astro: an empty
   * push, the type errors a moment later): its diagnostics are pulled, which is exact for a version.
   */
  pullsUnannounced?: boolean;
  /**
   * The program the server's diagnostics come from (bash-language-server runs shellcheck): without
   * it the server reports none, which would read as a clean file, so diagnostics are refused instead.
   */
  diagnosticsFrom?: { command: string; installHint: string };
  /** Actions the server announces but answers with nothing, and what to do instead: refused, never "none found". */
  unanswered?: Readonly<Partial<Record<"definition" | "references" | "hover" | "symbols", string>>>;
  /** Answers to the server's `workspace/configuration` requests, by section ("yaml", "css"). */
  settings?: Record<string, unknown>;
  checker?: ProjectChecker;
  /** Installed by the sidecar on first use when missing (docs/lsp.md: Installing servers). */
  npm?: NpmInstall;
  /** How a person installs it, for servers the sidecar does not install (and when install is "never"). */
  installHint: string;
  /** Why the server runs the workspace's own code whatever its settings: an untrusted workspace does not start it. */
  needsTrust?: string;
  untrusted?: UntrustedLaunch;
  /** Files the server runs when a root holds them (a JavaScript config): an untrusted workspace does not start it there. */
  workspaceCodeFiles?: { files: readonly string[]; why: string };
}
