// Children can't read the run's tokens from the sidecar's memory: an eval kernel, a vibe worker or a
// debuggee runs as the sidecar's own user, and by default such a process may read
// /proc/<sidecar>/mem (an eval kernel found all three surfaces' tokens there). `sidecar serve` makes
// itself non-dumpable before the tokens exist (Linux). Root may read any memory whatever the flag,
// so the sidecar runs here as an unprivileged user (created if missing), like a harness would run it.
import { beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSidecar } from "../../build/spawn-sidecar.ts";
import { call } from "../helpers/call.ts";

/** The unprivileged user the sidecar runs as when the tests run as root. */
const PROBE_USER = "sidecar-probe";
const REPO = join(import.meta.dir, "../..");

/**
 * Searches the writable private mappings of `pid` (the heaps; the runtime reserves gigabytes of
 * address space besides, which would take minutes to read) for each token, as Latin-1 or UTF-16;
 * prints how many it found, or why it cannot look.
 */
const SEARCH_MEMORY = (pid: number, tokens: string[]) => `
import re
tokens = ${JSON.stringify(tokens)}
MAX_MAPPING = 256 << 20
try:
    maps = open("/proc/${pid}/maps").read().splitlines()
    mem = open("/proc/${pid}/mem", "rb", 0)
except OSError as error:
    print("cannot read the sidecar's memory:", type(error).__name__, error.strerror)
else:
    found = set()
    for line in maps:
        m = re.match(r"([0-9a-f]+)-([0-9a-f]+) rw-p", line)
        if not m:
            continue
        start, end = int(m.group(1), 16), int(m.group(2), 16)
        if end - start > MAX_MAPPING:
            continue
        try:
            mem.seek(start)
            chunk = mem.read(end - start)
        except OSError:
            continue
        found.update(t for t in tokens if t.encode() in chunk or t.encode("utf-16-le") in chunk)
        if len(found) == len(tokens):
            break
    print("tokens found in the sidecar's memory:", len(found), "of", len(tokens))
`;

/** uid and gid to run as: the probe user's when running as root, else our own. */
function runAs(): { uid: number; gid: number } {
  if (process.getuid!() !== 0) return { uid: process.getuid!(), gid: process.getgid!() };
  const id = (flag: string) => Number(Bun.spawnSync(["id", flag, PROBE_USER]).stdout.toString().trim());
  return { uid: id("-u"), gid: id("-g") };
}

beforeAll(() => {
  if (process.getuid!() !== 0 || Bun.spawnSync(["id", PROBE_USER]).exitCode === 0) return;
  const made = Bun.spawnSync(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", PROBE_USER], { stderr: "pipe" });
  if (made.exitCode !== 0) throw new Error(`useradd ${PROBE_USER} failed: ${made.stderr.toString()}`);
});

describe("the sidecar's memory", () => {
  test("an eval kernel, run as the sidecar's own user, cannot read the tokens from it; writes still go through held folders", async () => {
    const { uid, gid } = runAs();
    const base = mkdtempSync(join(tmpdir(), "sidecar-memory-"));
    const workdir = join(base, "work");
    const home = join(base, "home");
    for (const dir of [workdir, home]) Bun.spawnSync(["mkdir", "-p", dir]);
    writeFileSync(join(workdir, "mod.py"), "value = 1\n");
    for (const path of [base, workdir, home, join(workdir, "mod.py")]) chownSync(path, uid, gid);
    chmodSync(base, 0o755);
    const config = join(base, "run.json");
    writeFileSync(config, JSON.stringify({ workdir, resources: { kernels: { python: "/usr/bin/python3" }, parser: { workers: 0 }, languageServers: false, debugAdapters: false } }));
    const asUser = process.getuid!() === 0 ? ["setpriv", `--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", "--"] : [];
    await using sidecar = await spawnSidecar([...asUser, process.execPath, join(REPO, "src/main.ts"), "serve", "--config", config], {
      env: { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, ".cache") },
    });
    try {
      const pid = sidecar.ready.pid;
      expect(readFileSync(`/proc/${pid}/status`, "utf8")).toMatch(new RegExp(`^Uid:\\s+${uid}\\b`, "m"));
      const client = await sidecar.connect("default");
      const tokens = Object.values(sidecar.ready.surfaces);
      const probe = await call(client, "eval", { code: SEARCH_MEMORY(pid, tokens), description: "look for the tokens in the sidecar's memory" });
      expect(probe.text).toContain("cannot read the sidecar's memory: PermissionError Permission denied");
      expect(probe.text).not.toContain("tokens found");
      // Non-dumpable, /proc/<pid>/ is root's; the writer's /proc/self/fd/<fd>/<name> paths still work for the process itself.
      const staged = await call(client, "ast_edit", { pattern: "value = 1", rewrite: "value = 2", path: "mod.py", language: "python" });
      const accepted = await call(client, "resolve", { edit_id: staged.data.edit_id, action: "accept" });
      expect(accepted.isError).toBe(false);
      expect(readFileSync(join(workdir, "mod.py"), "utf8")).toBe("value = 2\n");
    } finally {
      await sidecar.stop();
      rmSync(base, { recursive: true, force: true });
    }
  }, 90_000);
});
