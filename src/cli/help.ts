// The text of `sidecar --help`: every command and flag.
import { VERSION } from "../version.ts";

export const HELP = `sidecar ${VERSION} — server-bound MCP tools for one AI-agent run

Usage:
  sidecar serve [--config run.json] [--workdir DIR] [--listen HOST:PORT] [--allow-remote] [--outlive-parent]
      Serve one run over MCP Streamable HTTP at /mcp. Without --config it runs on embedded
      defaults: workdir = current directory; parser, language servers, debugger (conversation
      "local"), kernels and questions (space "local", answered on the operator page) connected.
      When ready it prints one JSON line on stdout ("page" only when the operator page serves):
        {"url":…,"page":…,"surfaces":{"default":TOKEN,"plan":TOKEN,"explore":TOKEN},"pid":…,"version":…}
      Logs go to stderr. SIGINT, SIGTERM and SIGHUP shut down the run and every process it
      started, and so does the exit of the process that started the sidecar (the harness),
      unless --outlive-parent.

  sidecar tools [--surface NAME] [--config run.json] [--workdir DIR]
      Print, as JSON, the tools that surface would see (default surface: "default").

  sidecar doctor [--workdir DIR]
      Report what this machine and checkout can serve: each embedded grammar loads, and what each
      tool needs that is missing, with a hint how to install it. Exits 1 only when the binary itself
      is broken (an embedded grammar does not load); a missing language server, adapter or
      interpreter is reported (FAIL, with the hint) but is not an error: no checkout needs them all.

  sidecar --version | -v      Print the version and commit.
  sidecar --help | -h         Print this help.

Flags:
  --config FILE     The run config (JSON). Documented in docs/config.md. Unknown keys are errors.
  --workdir DIR     The checkout this run works on; overrides the config's workdir.
  --listen ADDR     Address to bind, HOST:PORT (default 127.0.0.1:0, an ephemeral port).
  --allow-remote    Permit a non-loopback --listen address and foreign Host/Origin headers.
  --outlive-parent  Keep serving after the process that started \`serve\` exits (for a launcher that
                    starts the sidecar and exits); stop it with SIGTERM then.
  --surface NAME    With \`tools\`: which surface's view to print.

Surfaces: a bearer token chooses the surface; each surface sees only tools whose approval tier it
allows (default: read+write+exec; plan and explore: read only).
`;
