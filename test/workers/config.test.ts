// The vibe resource's settings: defaults filled, every mistake named with its path.
import { describe, expect, test } from "bun:test";
import { ConfigError, parseConfig } from "../../src/config/load.ts";

function problems(vibe: unknown): string[] {
  try {
    parseConfig({ resources: { vibe } });
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
}

describe("the vibe resource settings", () => {
  test("a tier needs only its command; the rest has defaults", () => {
    const config = parseConfig({ resources: { vibe: { fast: { command: ["agent", "--headless"] } } } });
    expect(config.resources?.vibe).toEqual({
      fast: { command: ["agent", "--headless"], isolation: "workdir", timeLimitSeconds: 1800, concurrency: 2 },
      maxSpawns: 50,
      mode: "on",
    });
  });

  test.each([
    [{}, "resources.vibe: expected at least one worker tier: fast or good"],
    [{ fast: { command: [] } }, "resources.vibe.fast.command: expected at least the program to run"],
    [{ fast: { command: "agent --headless" } }, 'resources.vibe.fast.command: expected the command as an argv list, e.g. ["my-agent", "--headless"]'],
    [{ fast: { command: ["a"], isolation: "container" } }, 'resources.vibe.fast.isolation: expected "workdir" or "worktree"'],
    [{ fast: { command: ["a"], concurrency: 0 } }, "resources.vibe.fast.concurrency: expected the concurrency cap of at least 1"],
    [{ fast: { command: ["a"], timeLimitSeconds: 0 } }, "resources.vibe.fast.timeLimitSeconds: expected a time limit above 0 seconds"],
    [{ fast: { command: ["a"], timeLimitSeconds: 1e10 } }, "resources.vibe.fast.timeLimitSeconds: expected a time limit of at most 604800 seconds (a week)"],
    [{ fast: { command: ["a"], env: { "BAD-NAME": "x" } } }, "resources.vibe.fast.env.BAD-NAME: expected an environment variable name"],
    [{ fast: { command: ["a"] }, maxSpawns: 2.5 }, "resources.vibe.maxSpawns: expected the spawn cap as a whole number"],
    [{ fast: { command: ["a"] }, mode: "auto" }, 'resources.vibe.mode: expected "on" or "off"'],
    [{ fast: { command: ["a"] }, slow: { command: ["b"] } }, "resources.vibe.slow: unknown key (check its spelling; unknown keys are not ignored)"],
  ])("%j is refused: %s", (vibe, problem) => {
    expect(problems(vibe)).toContain(problem);
  });
});
