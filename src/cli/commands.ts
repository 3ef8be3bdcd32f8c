// The commands and the flags each takes, as data: parsing, help, "did you mean" and shell completion read it.

import { LOG_LEVELS } from "../log/log.ts";
import { LOG_FORMATS } from "../log/log-line.ts";

export interface FlagSpec {
  name: string;
  short?: string;
  /** The value's placeholder in help (FILE, DIR); absent for a switch. */
  value?: string;
  /** Given more than once, every value is kept. */
  multiple?: boolean;
  /** What completion offers for the value. */
  complete?: "file" | "directory";
  /** The only values accepted, when the set is closed: parsing refuses others, completion offers them. */
  choices?: readonly string[];
  help: string;
}

interface PositionalSpec {
  name: string;
  required: boolean;
  /** Takes every remaining argument (`servers install typescript python`); only the last may. */
  variadic?: boolean;
  /** The only values accepted, when the set is closed. */
  choices?: readonly string[];
  complete?: "file" | "commands";
  help: string;
}

export interface CommandSpec {
  name: string;
  summary: string;
  /** Paragraphs shown by `sidecar help NAME`. */
  description: string;
  flags: readonly FlagSpec[];
  positionals?: readonly PositionalSpec[];
  /** Environment variables the command reads: [name, meaning]. */
  environment?: readonly (readonly [string, string])[];
  /** Started by the sidecar itself; not listed in help or completion. */
  hidden?: boolean;
}

const config: FlagSpec = { name: "config", value: "FILE", complete: "file", help: "The run config (JSON; docs/config.md). Unknown keys are errors; resources merge over the embedded defaults." };
const workdir: FlagSpec = { name: "workdir", value: "DIR", complete: "directory", help: "The checkout this run works on; overrides the config's workdir. Default: the current directory." };
const cacheDir: FlagSpec = {
  name: "cache-dir",
  value: "DIR",
  complete: "directory",
  help: "The language servers' install cache (an absolute path); wins over the config's resources.languageServers.cacheDir. Default: $XDG_CACHE_HOME/sidecar/servers.",
};
const listen: FlagSpec = { name: "listen", value: "HOST:PORT", help: "Address to bind (default 127.0.0.1:0, an ephemeral port); overrides the config's listen." };

export const HELP_FLAG: FlagSpec = { name: "help", short: "h", help: "Print this help." };
export const VERSION_FLAG: FlagSpec = { name: "version", short: "v", help: "Print the version and commit." };

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: "serve",
    summary: "Serve one run's tools over MCP Streamable HTTP at /mcp",
    description: `Without --config it runs on the embedded defaults: workdir = the current directory; parser,
language servers, debugger (conversation "local"), kernels and questions (space "local",
answered on the operator page) connected. A config's resources merge over those defaults
("kernels": false turns one off).

When ready it prints one JSON line on stdout ("page" is the run's operator page, with a one-time link):
  {"url":…,"page":…,"surfaces":{"default":TOKEN,"plan":TOKEN,"explore":TOKEN},"pid":…,"version":…}
Each surface's bearer token is minted per run unless the config, a token file or the
environment fixes it. Logs go to stderr (--log-level, --log-format, --log-file); with a stateDir,
every tool call is recorded in <stateDir>/calls.jsonl. SIGINT, SIGTERM and SIGHUP shut down the run and
every process it started, and so does the exit of the process that started the sidecar
(the harness), unless --outlive-parent. So a sidecar started in the background from a shell
that then exits (\`nohup sidecar serve … &\`, then closing the terminal), or by a launcher or
service script that exits, stops itself too ("the process that started it … exited"): pass
--outlive-parent there, and stop it with SIGTERM.

With --stdio it serves one MCP session over stdin and stdout instead, for clients that start
their servers as commands (docs/clients.md): the tools of one surface (--surface, default
"default"), no ready line, nothing but MCP on stdout, logs on stderr. End of input ends the
run. The operator page still serves on --listen; its address is logged on stderr. Without
--workdir and --config, the checkout is the client's first MCP root (else the current directory,
unless that is / or the home folder).`,
    flags: [
      config,
      workdir,
      listen,
      cacheDir,
      {
        name: "token-file",
        value: "[SURFACE=]FILE",
        multiple: true,
        complete: "file",
        help: "Read a surface's bearer token from FILE (default surface: default). Repeat for more surfaces. Wins over SIDECAR_TOKEN* and the config.",
      },
      { name: "stdio", help: "Serve one MCP session over stdin/stdout (for clients that start a command) instead of printing a ready line." },
      { name: "surface", value: "NAME", help: 'With --stdio: whose tools the session gets (default "default").' },
      { name: "allow-remote", help: "Permit a non-loopback --listen address and foreign Host/Origin headers." },
      { name: "outlive-parent", help: "Keep serving after the process that started `serve` exits: for `nohup sidecar serve … &` from a shell you close, or a launcher that starts the sidecar and exits (without it the sidecar stops with them). Stop it with SIGTERM then." },
      { name: "log-level", value: "LEVEL", choices: LOG_LEVELS, help: "error, warn, info (default) or debug (every tool call). Applies to stderr and --log-file." },
      { name: "log-format", value: "FORMAT", choices: LOG_FORMATS, help: "text (default: a line a person reads) or json (one object per line: time, level, event, message, fields)." },
      { name: "log-file", value: "FILE", complete: "file", help: "Also append the log to FILE." },
    ],
    environment: [
      ["SIDECAR_TOKEN", "The default surface's bearer token (at least 16 characters of A-Z a-z 0-9 . _ ~ + / = -)."],
      ["SIDECAR_TOKEN_<SURFACE>", "Another surface's token, e.g. SIDECAR_TOKEN_PLAN (the name upper-cased, - as _)."],
    ],
  },
  {
    name: "tools",
    summary: "Print, as JSON, the tools one surface would see",
    description: "Connects the run's resources as `serve` would (without listening) and prints the tool list\nof one surface, each tool with its input schema and tier.",
    flags: [{ name: "surface", value: "NAME", help: 'Which surface\'s view to print (default "default").' }, config, workdir, cacheDir],
  },
  {
    name: "doctor",
    summary: "Report what this machine and checkout can serve, and how to fix the rest",
    description: `Probes every embedded grammar, language server, debug adapter, interpreter and git, the way
the tools would, and prints what works, what does not (with a hint), and what this checkout does
not use. The first line after the heading is the one that matters most. Exits 1 only when the
binary itself is broken (an embedded grammar does not load); anything missing is reported but is
not an error: no checkout needs everything.`,
    flags: [
      { ...workdir, help: "The checkout to check; overrides the config's workdir. Default: the current directory." },
      { ...config, help: "Check what this run config would serve: its workdir, server and adapter overrides, interpreter." },
      cacheDir,
      { name: "json", help: "Print the rows as JSON on stdout instead of the table." },
    ],
  },
  {
    name: "check-config",
    summary: "Validate a run config and print the effective config, defaults merged",
    description: `Reads the run config, reports every problem (exit 2), or prints on stdout the config \`serve\`
would run with: the embedded defaults merged in, the workdir resolved, and the tools each surface
would see. A config that leaves no tool at all is valid but warned about on stderr.`,
    flags: [workdir, listen, cacheDir],
    positionals: [{ name: "FILE", required: true, complete: "file", help: "the run config to check" }],
  },
  {
    name: "servers",
    summary: "List, install or remove the language servers the sidecar installs from npm",
    description: `The catalog's npm language servers (typescript, python, bash, yaml, json, …) install
themselves on first use into the cache; this installs them ahead of a run (a harness's install
step, an image build that bakes the cache in), lists them with their sizes, or removes them.
The cache is $XDG_CACHE_HOME/sidecar/servers (else ~/.cache/sidecar/servers) unless --cache-dir
says otherwise (a run config's resources.languageServers.cacheDir names the same folder).`,
    flags: [
      { ...cacheDir, help: "The install cache (an absolute path); `serve --cache-dir` takes the same folder. Default: $XDG_CACHE_HOME/sidecar/servers." },
      { name: "all", help: "install: every npm server in the catalog; remove: everything in the cache." },
    ],
    positionals: [
      { name: "ACTION", required: true, choices: ["list", "install", "remove"], help: "list, install or remove" },
      { name: "SERVER", required: false, variadic: true, help: "server ids (typescript python …), or for remove an install's name@version" },
    ],
  },
  {
    name: "console",
    summary: "Print a fresh one-time link to the console of a sidecar you run",
    description: `The console (the operator page, where questions are answered) opens from a one-time link,
in one browser. Closed it, or want it in another browser? This prints a fresh link of the sidecar
you run (the only one, or the one --pid names), asked for through a folder only your OS user can
enter ($XDG_RUNTIME_DIR/sidecar, else <tmp>/sidecar-<uid>): never over MCP, so the agent cannot
open the page and answer its own questions. The link goes to stdout; which run it is, to stderr.
Exits 1 when none of your sidecars is running, 2 when several are and --pid names none of them.`,
    flags: [{ name: "pid", value: "N", help: "The process id of the sidecar whose console to open, when you run several." }],
  },
  {
    name: "completion",
    summary: "Print a shell completion script",
    description: `Load it in your shell:
  bash:  source <(sidecar completion bash)        (or save it under ~/.local/share/bash-completion/completions/sidecar)
  zsh:   sidecar completion zsh > "\${fpath[1]}/_sidecar"
  fish:  sidecar completion fish > ~/.config/fish/completions/sidecar.fish`,
    flags: [],
    positionals: [{ name: "SHELL", required: true, choices: ["bash", "zsh", "fish"], help: "bash, zsh or fish" }],
  },
  {
    name: "version",
    summary: "Print the version and commit, as --version does",
    description: "Prints `sidecar VERSION (COMMIT)` on stdout, the same line as `sidecar --version`.",
    flags: [],
  },
  {
    name: "help",
    summary: "Print the help of a command",
    description: "`sidecar help serve` is `sidecar serve --help`.",
    flags: [],
    positionals: [{ name: "COMMAND", required: false, complete: "commands", help: "the command whose help to print" }],
  },
  {
    name: "__kernel-js",
    summary: "The eval tool's JavaScript kernel, started by the sidecar itself",
    description: "",
    flags: [],
    hidden: true,
  },
];

export function commandNamed(name: string): CommandSpec | undefined {
  return COMMANDS.find((command) => command.name === name);
}

export const visibleCommands = (): CommandSpec[] => COMMANDS.filter((command) => !command.hidden);

/** The command's flags plus --help and --version, which every command takes. */
export function flagsOf(command: CommandSpec): FlagSpec[] {
  return [...command.flags, HELP_FLAG, VERSION_FLAG];
}
