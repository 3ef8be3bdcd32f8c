// The command line a person meets: help per command, a bare `sidecar`, unknown flags and commands refused with what to type instead.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { COMMANDS, visibleCommands } from "../../src/cli/commands.ts";
import { runCli } from "./run-cli.ts";

test("every command src/main.ts dispatches is in the command table, and every table entry is dispatched", () => {
  const main = readFileSync(join(import.meta.dir, "..", "..", "src", "main.ts"), "utf8");
  const dispatched = [...main.matchAll(/case "([^"]+)":/g)].map((m) => m[1]!).sort();
  // `help` is answered before the dispatch; everything else must be both parsed and run.
  expect(dispatched).toEqual(COMMANDS.map((c) => c.name).filter((name) => name !== "help").sort());
});

describe("help", () => {
  test("a bare `sidecar` prints the overall help on stderr and exits 2", () => {
    const { code, stdout, stderr } = runCli([]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("Usage: sidecar COMMAND [FLAGS]");
  });

  test("`sidecar --help` lists every command (not the hidden kernel) on stdout", () => {
    const { code, stdout } = runCli(["--help"]);
    expect(code).toBe(0);
    for (const command of visibleCommands()) expect(stdout).toMatch(new RegExp(`^  ${command.name}\\s+${command.summary}`, "m"));
    expect(stdout).not.toContain("__kernel-js");
  });

  test.each(visibleCommands().map((c) => c.name))("%s: `--help` after it and `sidecar help` before it print its usage and every flag it takes", (name) => {
    const asFlag = runCli([name, "--help"]);
    const asCommand = runCli(["help", name]);
    expect(asFlag.code).toBe(0);
    expect(asCommand).toEqual(asFlag);
    expect(asFlag.stdout).toStartWith(`sidecar ${name} — `);
    expect(asFlag.stdout).toContain(`Usage: sidecar ${name}`);
    for (const flag of COMMANDS.find((c) => c.name === name)!.flags) expect(asFlag.stdout).toContain(`--${flag.name}`);
  });

  // A sidecar started with `nohup … &` from a shell that then exits stops itself; the help must warn before it happens.
  test("serve --help says a sidecar started in the background stops with the shell or launcher that started it, and names --outlive-parent", () => {
    const { stdout } = runCli(["serve", "--help"]);
    const text = stdout.replace(/\s+/g, " ");
    expect(text).toContain("So a sidecar started in the background from a shell that then exits (`nohup sidecar serve … &`, then closing the terminal), or by a launcher or service script that exits, stops itself too");
    expect(text).toContain("pass --outlive-parent there, and stop it with SIGTERM");
    expect(text).toMatch(/--outlive-parent\s+Keep serving after the process that started `serve` exits: for `nohup sidecar serve … &` from a shell you close/);
    const clients = readFileSync(join(import.meta.dir, "..", "..", "docs", "clients.md"), "utf8").replace(/\s+/g, " ");
    expect(clients).toContain("**Started in the background, it stops when what started it exits.**");
    expect(clients).toContain("nohup sidecar serve --workdir /path/to/checkout --listen 127.0.0.1:7777 --token-file ~/.config/sidecar/token --outlive-parent");
  });

  test("`sidecar help` of a command that does not exist suggests the near one", () => {
    const { code, stderr } = runCli(["help", "sevre"]);
    expect(code).toBe(2);
    expect(stderr).toStartWith('sidecar: No command "sevre". Did you mean `serve`?');
  });
});

describe("refusals say what to type instead", () => {
  test.each([
    [["doctor", "--bogus"], "sidecar: Unknown option '--bogus'. `doctor` takes --workdir, --config, --cache-dir, --json. Run `sidecar doctor --help` for its flags."],
    [["doctor", "--wokrdir", "."], "sidecar: Unknown option '--wokrdir'. Did you mean --workdir? `doctor` takes --workdir, --config, --cache-dir, --json. Run `sidecar doctor --help` for its flags."],
    // A flag of another command is refused by this one: `serve` takes no --json.
    [["serve", "--json"], "sidecar: Unknown option '--json'. `serve` takes --config, --workdir, --listen, --cache-dir, --token-file, --stdio, --surface, --allow-remote, --outlive-parent, --log-level, --log-format, --log-file. Run `sidecar serve --help` for its flags."],
    [["serve", "--conifg", "run.json"], "Did you mean --config?"],
    [["tools", "--surf", "plan"], "Did you mean --surface?"],
    [["doctr"], 'sidecar: Unknown command "doctr". Did you mean `doctor`?'],
    [["run.json"], "To check a run config: sidecar check-config run.json; to serve it: sidecar serve --config run.json."],
    [["--workdir", ".", "doctor"], "sidecar: The command comes first: `sidecar doctor --workdir .`."],
    [["doctor", "--json=yes"], "sidecar: --json is a switch and takes no value"],
    [["serve", "--config"], "sidecar: --config needs a value: --config FILE."],
    [["serve", "--listen", "1", "--listen", "2"], "sidecar: --listen was given twice; give it once."],
    [["serve", "run.json"], 'sidecar: unexpected argument "run.json" after `serve`; it takes flags only. To use a run config, pass --config run.json.'],
    [["completion", "tcsh"], 'sidecar: SHELL must be one of bash, zsh, fish, not "tcsh".'],
    [["completion", "bsah"], "Did you mean bash?"],
    [["check-config"], "sidecar: `check-config` needs FILE (the run config to check)."],
    [["serve", "--log-level", "loud"], 'sidecar: --log-level must be one of error, warn, info, debug, not "loud". Run `sidecar serve --help` for its flags.'],
    [["serve", "--log-format=jsn"], 'sidecar: --log-format must be one of text, json, not "jsn". Did you mean json?'],
  ])("sidecar %j", (args, expected) => {
    const { code, stdout, stderr } = runCli(args);
    expect(stderr).toContain(expected);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stdout).toBe("");
    expect(code).toBe(2);
  });

  test("--version works alone and after a command, and `sidecar version` says the same", () => {
    expect(runCli(["--version"]).stdout).toMatch(/^sidecar \d+\.\d+\.\d+ \(/);
    expect(runCli(["version"])).toEqual({ code: 0, stdout: runCli(["--version"]).stdout, stderr: "" });
    expect(runCli(["doctor", "-v"]).stdout).toMatch(/^sidecar \d+\.\d+\.\d+ \(/);
  });
});
