// Command-line parsing: each command takes its own flags (src/cli/commands.ts); errors are worded for a person.
import { commandNamed, flagsOf, visibleCommands, type CommandSpec, type FlagSpec } from "./commands.ts";
import { nearest } from "./suggest.ts";

export interface CliFlags {
  config?: string;
  workdir?: string;
  listen?: string;
  surface?: string;
  stdio?: boolean;
  "token-file"?: string[];
  "allow-remote"?: boolean;
  "outlive-parent"?: boolean;
  "log-level"?: string;
  "log-format"?: string;
  "log-file"?: string;
  json?: boolean;
  "cache-dir"?: string;
  all?: boolean;
  pid?: string;
  help?: boolean;
  version?: boolean;
}

export class UsageError extends Error {}

export interface CommandLine {
  command: string | undefined;
  flags: CliFlags;
  /** The command's positional arguments, checked against its table entry. */
  rest: string[];
}

export function parseCommandLine(argv: readonly string[]): CommandLine {
  const words = [...argv];
  const misplaced = words[0]?.startsWith("-") && !["-h", "--help", "-v", "--version"].includes(words[0]) ? words.find((w) => commandNamed(w)) : undefined;
  if (misplaced) {
    const flags = words.filter((w) => w !== misplaced).join(" ");
    throw new UsageError(`The command comes first: \`sidecar ${misplaced} ${flags}\`. Run \`sidecar ${misplaced} --help\` for its flags.`);
  }
  // A leading flag (`sidecar --version`, `sidecar --help`) belongs to no command.
  const command = words[0] !== undefined && !words[0].startsWith("-") ? words.shift() : undefined;
  const spec = command === undefined ? undefined : commandNamed(command);
  if (command !== undefined && !spec) throw unknownCommand(command);
  const flags = spec ? flagsOf(spec) : flagsOf({ name: "", summary: "", description: "", flags: [] });
  const { values, positionals } = parseWords(words, flags, spec);
  if (!spec && positionals.length > 0) {
    // `sidecar --help serve` asks for serve's help; any other word after a leading flag is misplaced.
    if (values.help) return parseCommandLine(["help", ...positionals]);
    throw new UsageError(`The command comes first: \`sidecar ${positionals[0]} ${words.filter((w) => w.startsWith("-")).join(" ")}\`. Run \`sidecar --help\` for the commands.`);
  }
  if (spec && !values.help) checkPositionals(spec, positionals);
  return { command, flags: values as CliFlags, rest: positionals };
}

function unknownCommand(command: string): UsageError {
  const names = visibleCommands().map((c) => c.name);
  const guess = nearest(command, names);
  const hint = command.endsWith(".json") ? ` To check a run config: sidecar check-config ${command}; to serve it: sidecar serve --config ${command}.` : "";
  return new UsageError(
    `Unknown command ${JSON.stringify(command)}.${guess ? ` Did you mean \`${guess}\`?` : ""}${hint} Commands: ${names.join(", ")}. Run \`sidecar --help\`.`,
  );
}

function parseWords(words: string[], flags: readonly FlagSpec[], spec: CommandSpec | undefined) {
  const values: Record<string, string | boolean | string[]> = {};
  const positionals: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === "--") {
      positionals.push(...words.slice(i + 1));
      break;
    }
    if (!word.startsWith("-") || word === "-") {
      positionals.push(word);
      continue;
    }
    const [written, inline] = splitInline(word);
    const flag = word.startsWith("--") ? flags.find((f) => f.name === written.slice(2)) : flags.find((f) => f.short === written.slice(1));
    if (!flag) throw unknownFlag(written, flags, spec);
    if (!flag.value) {
      if (inline !== undefined) throw usage(`--${flag.name} is a switch and takes no value (got ${JSON.stringify(inline)}).`, spec);
      values[flag.name] = true;
      continue;
    }
    const value = inline ?? words[++i];
    if (value === undefined || (inline === undefined && value.startsWith("--"))) throw usage(`--${flag.name} needs a value: --${flag.name} ${flag.value}.`, spec);
    if (flag.choices && !flag.choices.includes(value)) {
      const guess = nearest(value, flag.choices);
      throw usage(`--${flag.name} must be one of ${flag.choices.join(", ")}, not ${JSON.stringify(value)}.${guess ? ` Did you mean ${guess}?` : ""}`, spec);
    }
    if (flag.multiple) values[flag.name] = [...((values[flag.name] as string[] | undefined) ?? []), value];
    else if (values[flag.name] !== undefined) throw usage(`--${flag.name} was given twice; give it once.`, spec);
    else values[flag.name] = value;
  }
  return { values, positionals };
}

function splitInline(word: string): [string, string | undefined] {
  const eq = word.indexOf("=");
  return word.startsWith("--") && eq > 0 ? [word.slice(0, eq), word.slice(eq + 1)] : [word, undefined];
}

function unknownFlag(written: string, flags: readonly FlagSpec[], spec: CommandSpec | undefined): UsageError {
  const own = spec ? flags.filter((f) => f.name !== "help" && f.name !== "version") : flags;
  const guess = nearest(written.replace(/^-+/, ""), own.map((f) => f.name));
  const who = spec ? `\`${spec.name}\`` : "sidecar";
  const takes = own.length ? `${who} takes ${own.map((f) => `--${f.name}`).join(", ")}` : `${who} takes no flags`;
  const placement = spec ? "" : " Flags come after the command, e.g. `sidecar serve --workdir DIR`.";
  return usage(`Unknown option '${written}'.${guess ? ` Did you mean --${guess}?` : ""} ${takes}.${placement}`, spec);
}

function checkPositionals(spec: CommandSpec, positionals: string[]): void {
  const expected = spec.positionals ?? [];
  if (positionals.length > expected.length && !expected.at(-1)?.variadic) {
    const extra = positionals[expected.length]!;
    if (expected.length === 0) {
      // `sidecar serve run.json` must not quietly serve the embedded defaults instead.
      const hint = extra.endsWith(".json") && spec.flags.some((f) => f.name === "config") ? ` To use a run config, pass --config ${extra}.` : "";
      throw usage(`unexpected argument ${JSON.stringify(extra)} after \`${spec.name}\`; it takes flags only.${hint}`, spec);
    }
    throw usage(`unexpected argument ${JSON.stringify(extra)}; \`${spec.name}\` takes ${expected.map((p) => p.name).join(" ")}.`, spec);
  }
  expected.forEach((positional, index) => {
    const value = positionals[index];
    if (positional.variadic) return;
    if (value === undefined) {
      if (positional.required) throw usage(`\`${spec.name}\` needs ${positional.name} (${positional.help}).`, spec);
      return;
    }
    if (positional.choices && !positional.choices.includes(value)) {
      const guess = nearest(value, positional.choices);
      throw usage(`${positional.name} must be one of ${positional.choices.join(", ")}, not ${JSON.stringify(value)}.${guess ? ` Did you mean ${guess}?` : ""}`, spec);
    }
  });
}

function usage(message: string, spec: CommandSpec | undefined): UsageError {
  return new UsageError(`${message} Run \`sidecar ${spec ? `${spec.name} ` : ""}--help\` for ${spec ? "its" : "the commands and"} flags.`);
}
