// The help texts: `sidecar --help` lists the commands, `sidecar help COMMAND` documents one; both from the command table.
import { VERSION } from "../version.ts";
import { UsageError, type CliFlags } from "./args.ts";
import { commandNamed, flagsOf, HELP_FLAG, VERSION_FLAG, visibleCommands, type CommandSpec, type FlagSpec } from "./commands.ts";
import { nearest } from "./suggest.ts";

const FLAG_COLUMN = 28;
/** Help lines stay within a classic terminal's width. */
const WIDTH = 100;

function overallHelp(): string {
  const commands = visibleCommands();
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return `sidecar ${VERSION} — server-bound MCP tools for one AI-agent run

Usage: sidecar COMMAND [FLAGS]

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`).join("\n")}

Flags every command takes:
${[HELP_FLAG, VERSION_FLAG].map(flagLine).join("\n")}

Run \`sidecar help COMMAND\` (or \`sidecar COMMAND --help\`) for a command's flags.
Quick start: \`sidecar serve --workdir /path/to/checkout\`, then point an MCP client at the "url" it
prints with \`Authorization: Bearer <token>\` (docs/clients.md has ready-to-paste client configs).

Surfaces: a bearer token chooses the surface; each surface sees only tools whose approval tier it
allows (default: read+write+exec; plan and explore: read only).
`;
}

function commandHelp(spec: CommandSpec): string {
  const flags = spec.flags.map((f) => `[--${f.name}${f.value ? ` ${f.value}` : ""}]${f.multiple ? "…" : ""}`);
  const positionals = (spec.positionals ?? []).map((p) => (p.required ? p.name : `[${p.name}]`));
  const sections = [
    `sidecar ${spec.name} — ${spec.summary}`,
    `Usage: sidecar ${[spec.name, ...positionals, ...flags].join(" ")}`,
    ...(spec.description ? [spec.description] : []),
    ...(spec.positionals?.length ? [`Arguments:\n${spec.positionals.map((p) => row(p.name, p.help)).join("\n")}`] : []),
    `Flags:\n${flagsOf(spec).map(flagLine).join("\n")}`,
    ...(spec.environment?.length ? [`Environment:\n${spec.environment.map(([name, meaning]) => row(name, meaning)).join("\n")}`] : []),
  ];
  return `${sections.join("\n\n")}\n`;
}

function flagLine(flag: FlagSpec): string {
  return row(`${flag.short ? `-${flag.short}, ` : "    "}--${flag.name}${flag.value ? ` ${flag.value}` : ""}`, flag.help);
}

/** `  label   text`, the text wrapped to the width in its own column. */
function row(label: string, text: string): string {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + word.length + 1 <= WIDTH - FLAG_COLUMN) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  const indent = " ".repeat(FLAG_COLUMN);
  const first = label.length + 2 >= FLAG_COLUMN ? `  ${label}\n${indent}` : `  ${label.padEnd(FLAG_COLUMN - 2)}`;
  return first + lines.join(`\n${indent}`);
}

/**
 * `sidecar --help`, `sidecar help [COMMAND]`, `sidecar COMMAND --help`, and a bare `sidecar`: the
 * bare one is a mistake (help on stderr, exit 2), the rest were asked for (stdout, exit 0).
 */
export function printHelp(command: string | undefined, flags: CliFlags, rest: readonly string[]): number {
  if (command === undefined && !flags.help) {
    process.stderr.write(overallHelp());
    return 2;
  }
  // `sidecar help --help` is help's own help; a bare `sidecar help` the overall one.
  const topic = command === "help" ? (rest[0] ?? (flags.help ? "help" : undefined)) : command;
  if (topic === undefined) {
    process.stdout.write(overallHelp());
    return 0;
  }
  const spec = commandNamed(topic);
  if (!spec || spec.hidden) {
    const guess = nearest(topic, visibleCommands().map((c) => c.name));
    throw new UsageError(`No command ${JSON.stringify(topic)}.${guess ? ` Did you mean \`${guess}\`?` : ""} Commands: ${visibleCommands().map((c) => c.name).join(", ")}.`);
  }
  process.stdout.write(commandHelp(spec));
  return 0;
}
