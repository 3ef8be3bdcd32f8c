// `sidecar completion bash|zsh|fish`: completion scripts generated from the command table, so they never drift from it.
import { flagsOf, visibleCommands, type CommandSpec, type FlagSpec } from "./commands.ts";

export function completionCommand(rest: readonly string[]): number {
  const shell = rest[0] as "bash" | "zsh" | "fish";
  process.stdout.write({ bash: bashScript, zsh: zshScript, fish: fishScript }[shell]());
  return 0;
}

const flagWords = (spec: CommandSpec) => flagsOf(spec).map((f) => `--${f.name}`);
const positionalWords = (spec: CommandSpec) => {
  const first = spec.positionals?.[0];
  if (first?.choices) return first.choices.join(" ");
  if (first?.complete === "commands") return visibleCommands().map((c) => c.name).join(" ");
  return "";
};

function bashValues(flag: FlagSpec): string {
  if (flag.choices) return `COMPREPLY=($(compgen -W "${flag.choices.join(" ")}" -- "$cur"))`;
  if (flag.complete === "directory") return 'COMPREPLY=($(compgen -d -- "$cur"))';
  return flag.complete === "file" ? 'COMPREPLY=($(compgen -f -- "$cur"))' : "COMPREPLY=()";
}

function bashScript(): string {
  const commands = visibleCommands();
  const valueCases = commands
    .flatMap((spec) => spec.flags.filter((f) => f.value).map((f) => [spec.name, f] as const))
    .map(([command, f]) => `    ${command}:--${f.name}) ${bashValues(f)}; return ;;`);
  const wordCases = commands.map((spec) => {
    const files = spec.positionals?.[0]?.complete === "file" ? ' $(compgen -f -- "$cur")' : "";
    return `    ${spec.name}) COMPREPLY=($(compgen -W "${flagWords(spec).join(" ")} ${positionalWords(spec)}" -- "$cur")${files}) ;;`;
  });
  return `# bash completion for sidecar (sidecar completion bash)
_sidecar() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" command="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in -*) ;; *) command="\${COMP_WORDS[i]}"; break ;; esac
  done
  if [[ -z "$command" ]]; then
    COMPREPLY=($(compgen -W "${commands.map((c) => c.name).join(" ")} --help --version" -- "$cur"))
    return
  fi
  case "$command:$prev" in
${valueCases.join("\n")}
  esac
  case "$command" in
${wordCases.join("\n")}
  esac
}
complete -o filenames -F _sidecar sidecar
`;
}

/** zsh's _arguments spec of one flag: --name[help]:placeholder:action */
function zshFlag(flag: FlagSpec): string {
  const help = flag.help.replace(/[[\]'`:]/g, (c) => (c === "'" ? "'\\''" : c === ":" ? "\\:" : c === "`" ? "" : `\\${c}`));
  const names = flag.short ? `{-${flag.short},--${flag.name}}` : `--${flag.name}`;
  const repeat = flag.multiple ? "*" : "";
  const value = flag.value ? `:${flag.value.replace(/:/g, "\\:")}:${flag.choices ? `(${flag.choices.join(" ")})` : flag.complete === "directory" ? "_directories" : flag.complete === "file" ? "_files" : " "}` : "";
  return flag.short ? `'(-${flag.short} --${flag.name})'${names}'[${help}]${value}'` : `'${repeat}${names}[${help}]${value}'`;
}

function zshScript(): string {
  const commands = visibleCommands();
  const cases = commands.map((spec) => {
    const positional = spec.positionals?.[0];
    const action = positional?.choices ? `(${positional.choices.join(" ")})` : positional?.complete === "file" ? "_files" : positional?.complete === "commands" ? `(${commands.map((c) => c.name).join(" ")})` : "";
    const args = [...flagsOf(spec).map(zshFlag), ...(positional ? [`'1:${positional.name}:${action}'`] : [])];
    return `    ${spec.name})\n      _arguments -s ${args.join(" \\\n        ")}\n      ;;`;
  });
  return `#compdef sidecar
# zsh completion for sidecar (sidecar completion zsh > "\${fpath[1]}/_sidecar")
_sidecar() {
  local -a commands
  commands=(
${commands.map((c) => `    '${c.name}:${c.summary.replace(/'/g, "'\\''")}'`).join("\n")}
  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'sidecar command' commands
    return
  fi
  local command="\${words[2]}"
  shift words
  (( CURRENT-- ))
  case "$command" in
${cases.join("\n")}
  esac
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _sidecar "$@"
else
  compdef _sidecar sidecar
fi
`;
}

function fishScript(): string {
  const commands = visibleCommands();
  const quote = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  const names = commands.map((c) => c.name).join(" ");
  const lines = [
    "# fish completion for sidecar (sidecar completion fish > ~/.config/fish/completions/sidecar.fish)",
    "complete -c sidecar -f",
    ...commands.map((c) => `complete -c sidecar -n "not __fish_seen_subcommand_from ${names}" -a ${c.name} -d ${quote(c.summary)}`),
    ...commands.flatMap((spec) => [
      ...flagsOf(spec).map((f) => {
        const value = f.value ? (f.choices ? ` -x -a ${quote(f.choices.join(" "))}` : f.complete === "directory" ? " -x -a '(__fish_complete_directories)'" : f.complete === "file" ? " -r -F" : " -x") : "";
        return `complete -c sidecar -n "__fish_seen_subcommand_from ${spec.name}"${f.short ? ` -s ${f.short}` : ""} -l ${f.name}${value} -d ${quote(f.help)}`;
      }),
      ...(positionalWords(spec) ? [`complete -c sidecar -n "__fish_seen_subcommand_from ${spec.name}" -a ${quote(positionalWords(spec))}`] : []),
      ...(spec.positionals?.[0]?.complete === "file" ? [`complete -c sidecar -n "__fish_seen_subcommand_from ${spec.name}" -F`] : []),
    ]),
  ];
  return `${lines.join("\n")}\n`;
}
