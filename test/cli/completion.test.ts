// `sidecar completion bash|zsh|fish`: each script loaded in the real shell completes commands, flags and values.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/temp-dir.ts";
import { runCli } from "./run-cli.ts";

function script(shell: string): string {
  const { code, stdout } = runCli(["completion", shell]);
  expect(code).toBe(0);
  return stdout;
}

function shell(argv: string[], input = ""): string {
  const result = spawnSync(argv[0]!, argv.slice(1), { input, encoding: "utf8", timeout: 30_000 });
  if (result.status !== 0) throw new Error(`${argv[0]} failed: ${result.stderr}`);
  return result.stdout;
}

describe("bash", () => {
  /** What bash offers after the words of `line` (a trailing space starts a new, empty word). */
  async function complete(line: string, cwd?: string): Promise<string[]> {
    await using dir = await tempDir();
    const file = join(dir.path, "sidecar.bash");
    writeFileSync(file, script("bash"));
    const words = `read -ra COMP_WORDS <<< ${JSON.stringify(line)}; ${line.endsWith(" ") ? 'COMP_WORDS+=("");' : ""} COMP_CWORD=$((\${#COMP_WORDS[@]} - 1))`;
    const out = shell(["bash", "-c", `${cwd ? `cd ${cwd} && ` : ""}source ${file} && ${words} && _sidecar && printf '%s\\n' "\${COMPREPLY[@]}"`]);
    return out.split("\n").filter(Boolean).sort();
  }

  test.each([
    ["sidecar ", ["--help", "--version", "check-config", "completion", "console", "doctor", "help", "serve", "servers", "tools", "version"]],
    ["sidecar se", ["serve", "servers"]],
    ["sidecar doctor --", ["--cache-dir", "--config", "--help", "--json", "--version", "--workdir"]],
    ["sidecar completion ", ["--help", "--version", "bash", "fish", "zsh"]],
    ["sidecar help ch", ["check-config"]],
    ["sidecar serve --log-level ", ["debug", "error", "info", "warn"]],
    ["sidecar serve --log-level d", ["debug"]],
    ["sidecar serve --log-format ", ["json", "text"]],
  ])("%j offers %j", async (line, expected) => {
    expect(await complete(line)).toEqual(expected);
  });

  test("--workdir completes directories, --config files", async () => {
    await using dir = await tempDir();
    mkdirSync(join(dir.path, "project"));
    writeFileSync(join(dir.path, "pyproject.json"), "{}");
    expect(await complete("sidecar serve --workdir p", dir.path)).toEqual(["project"]);
    expect(await complete("sidecar serve --config p", dir.path)).toEqual(["project", "pyproject.json"]);
  });
});

describe("zsh", () => {
  /** An interactive zsh in a pseudo-terminal (zsh/zpty), TAB pressed after `line`: what it lists. */
  async function complete(line: string): Promise<string> {
    await using dir = await tempDir();
    writeFileSync(join(dir.path, "_sidecar"), script("zsh"));
    const driver = `
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PS1='> '; fpath=(${dir.path} \\$fpath); autoload -U compinit; compinit -u -D; zstyle ':completion:*' list-prompt ''; LISTMAX=1000; sidecar() { :; }; echo READY"
zpty -r z line '*READY*'
zpty -r z line '*READY*'
zpty -w -n z ${JSON.stringify(line)}$'\\t'
sleep 1.5
all="" chunk=""
while zpty -r -t z chunk; do all+=$chunk; done
print -r -- "$all"
zpty -d z`;
    return shell(["zsh", "-f"], driver).replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
  }

  test("commands are listed with their summaries", async () => {
    const listed = await complete("sidecar ");
    expect(listed).toMatch(/serve\s+-- Serve one run's tools/);
    expect(listed).toMatch(/check-config\s+-- Validate a run config/);
  }, 30_000);

  test("--log-level offers the levels", async () => {
    const listed = await complete("sidecar serve --log-level ");
    for (const level of ["error", "warn", "info", "debug"]) expect(listed).toContain(level);
  }, 30_000);

  test("a command's flags are listed with their help", async () => {
    const listed = await complete("sidecar doctor --");
    for (const flag of ["--config", "--json", "--workdir", "--help"]) expect(listed).toContain(flag);
    expect(listed).not.toContain("--listen");
  }, 30_000);
});

describe("fish", () => {
  test("commands, flags with their help, and a closed set of values", async () => {
    await using dir = await tempDir();
    const file = join(dir.path, "sidecar.fish");
    writeFileSync(file, script("fish"));
    const run = (line: string) => shell(["fish", "--no-config", "-c", `source ${file}; complete -C${JSON.stringify(line)}`]).split("\n").filter(Boolean).sort();
    expect(run("sidecar ").map((l) => l.split("\t")[0])).toEqual(["check-config", "completion", "console", "doctor", "help", "serve", "servers", "tools", "version"]);
    expect(run("sidecar doctor --")).toContain("--json\tPrint the rows as JSON on stdout instead of the table.");
    expect(run("sidecar completion ")).toEqual(["bash", "fish", "zsh"]);
    expect(run("sidecar serve --log-level ").map((l) => l.split("\t")[0])).toEqual(["debug", "error", "info", "warn"]);
  });
});
