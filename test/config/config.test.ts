// The run config: validated with errors that name the path and what was expected; defaults filled.
import { describe, expect, test } from "bun:test";
import { ConfigError, parseConfig, settle } from "../../src/config/load.ts";
import { tempDir } from "../helpers/temp-dir.ts";

function problemsOf(json: unknown): string[] {
  try {
    parseConfig(json);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error("expected the config to be rejected");
}

describe("config validation", () => {
  test.each([
    [{ resources: { questions: { port: "ftp://x" } } }, "resources.questions.port: expected an http(s) URL"],
    [{ resources: { questions: { port: "not a url" } } }, "resources.questions.port: expected an http(s) URL"],
    [{ workdir: 5 }, "workdir: expected a directory path as a string"],
    [{ listen: "everywhere" }, "listen: expected a listen address like 127.0.0.1:0"],
    [{ surfaces: { plan: { tiers: ["read", "admin"] } } }, "surfaces.plan.tiers.1: expected one of read, write, exec"],
    [{ surfaces: { plan: { tiers: [] } } }, "surfaces.plan.tiers: expected at least one tier"],
    [{ surfaces: { plan: { tiers: ["read"], token: "short" } } }, "surfaces.plan.token: expected a token of at least 16 characters"],
    [{ resources: { bridge: {} } }, "resources.bridge.url"],
    // A space never survives the Authorization header; a `;` breaks the operator page's cookie.
    [{ surfaces: { default: { tiers: ["read"], token: "0123456789abcdef; x" } } }, "surfaces.default.token: expected a token of letters, digits and"],
    // Timers wait at most 2^31 ms; a longer one fired at once (the session "expired" on launch).
    [{ resources: { debugAdapters: { ttlSeconds: 3_000_000 } } }, "resources.debugAdapters.ttlSeconds: expected at most 1800 seconds"],
    [{ resources: { languageServers: { idleShutdownSeconds: 3_000_000 } } }, "resources.languageServers.idleShutdownSeconds: expected at most 86400 seconds"],
    // At most 64 parse workers, as a run starts by default on a larger machine (MOST_PARSE_WORKERS).
    [{ resources: { parser: { workers: 65 } } }, "resources.parser.workers: expected at most 64 workers"],
    // valibot's object schemas take an array: `"resources": []` ran with no tools.
    [{ resources: [] }, "resources: expected an object ({…}), not an array or a scalar"],
    [{ resources: { parser: [] } }, "resources.parser: expected its settings as an object ({} takes the defaults), or false to leave it out"],
  ])("%j is rejected: %s", (json, expected) => {
    expect(problemsOf(json).join("\n")).toContain(expected);
  });

  test("unknown keys are errors, at any depth", () => {
    expect(problemsOf({ workdri: "." })).toContain("workdri: unknown key (check its spelling; unknown keys are not ignored)");
    expect(problemsOf({ resources: { parsers: {} } })[0]).toStartWith("resources.parsers: unknown key");
  });

  test("a full valid config is accepted", () => {
    const config = parseConfig({
      workdir: ".",
      conversation: "c-1",
      listen: "127.0.0.1:0",
      surfaces: { plan: { tiers: ["read"], token: "0123456789abcdef0123" }, ci: { tiers: ["read", "write"] } },
      resources: { parser: {}, questions: { port: "http://127.0.0.1:9/q", space: "s1" }, bridge: { url: "http://127.0.0.1:9/b" } },
    });
    expect(config.conversation).toBe("c-1");
  });
});

describe("settling a config", () => {
  test("default surfaces get minted tokens; config surfaces override and add", async () => {
    await using dir = await tempDir();
    const settings = settle(
      parseConfig({ workdir: dir.path, surfaces: { plan: { tiers: ["read"], token: "fixed-plan-token-0123" }, ci: { tiers: ["read", "write"] } } }),
    );
    const byName = Object.fromEntries(settings.surfaces.map((s) => [s.name, s]));
    expect(Object.keys(byName).sort()).toEqual(["ci", "default", "explore", "plan"]);
    expect(byName.default!.tiers).toEqual(["read", "write", "exec"]);
    expect(byName.plan!.token).toBe("fixed-plan-token-0123");
    expect(byName.default!.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(byName.default!.token).not.toBe(byName.explore!.token);
  });

  test("flags override the file; a missing workdir is a clear error", async () => {
    await using dir = await tempDir();
    await using other = await tempDir();
    const settings = settle(parseConfig({ workdir: dir.path, listen: "127.0.0.1:5000" }), { workdir: other.path, listen: "127.0.0.1:0" });
    expect(settings.workdir).toBe(other.path);
    expect(settings.listen).toEqual({ host: "127.0.0.1", port: 0 });
    expect(() => settle(parseConfig({ workdir: `${dir.path}/missing` }))).toThrow("does not exist");
  });
});

describe("docs/config.md", () => {
  test("its full example is a valid run config", async () => {
    const text = await Bun.file(`${import.meta.dir}/../../docs/config.md`).text();
    const example = /## Full example\s+```json\n([\s\S]*?)```/.exec(text)?.[1];
    expect(example).toBeDefined();
    const config = parseConfig(JSON.parse(example!));
    expect(Object.keys(config.resources ?? {}).sort()).toEqual(
      ["bridge", "debugAdapters", "kernels", "languageServers", "parser", "questions", "vibe"].sort(),
    );
  });
});
