// `sidecar console [--pid N]`: a fresh one-time link to a running sidecar's console, through the
// user's private runs folder; another OS user cannot mint one. Real sidecar processes throughout.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSidecar, type SpawnedSidecar } from "../../build/spawn-sidecar.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");
/** A spawned sidecar boots in a second; on a loaded machine much longer. */
const SPAWNED_TEST_MS = 120_000;
/** The other OS user of the last test; made here (the tests run as root), and left for later runs. */
const OTHER_USER = "sidecar-console-test";

let dir: TempDir;
/** Stands in for $XDG_RUNTIME_DIR: open to all (0755), so only the runs folder inside keeps others out. */
let runtimeDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await tempDir("console-");
  chmodSync(dir.path, 0o755);
  runtimeDir = join(dir.path, "runtime");
  mkdirSync(runtimeDir, { mode: 0o755 });
  chmodSync(runtimeDir, 0o755);
  await dir.write({ "checkout/app.py": "print('hi')\n", "second/app.py": "print('hi')\n" });
  env = { ...process.env, XDG_RUNTIME_DIR: runtimeDir };
});

afterAll(async () => {
  await dir[Symbol.asyncDispose]();
});

function serve(workdir: string): Promise<SpawnedSidecar> {
  return spawnSidecar([process.execPath, MAIN, "serve", "--workdir", join(dir.path, workdir)], { env });
}

function consoleCommand(args: string[] = [], user?: string): { code: number | null; stdout: string; stderr: string } {
  const argv = [process.execPath, MAIN, "console", ...args];
  const command = user ? ["runuser", "-u", user, "--", "env", `XDG_RUNTIME_DIR=${runtimeDir}`, ...argv] : argv;
  const result = spawnSync(command[0]!, command.slice(1), { env, encoding: "utf8", timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Trades a link's ticket as the page does; the page secret when the ticket is fresh. */
async function redeem(link: string): Promise<Response> {
  const url = new URL(link);
  const ticket = url.hash.replace(/^#k=/, "");
  return fetch(new URL("/operator/session", url), {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: url.origin },
    body: JSON.stringify({ ticket }),
  });
}

describe("sidecar console", () => {
  test(
    "one sidecar running: a fresh link each time, each opening the page once; the page's state names the checkout and the run",
    async () => {
      await using sidecar = await serve("checkout");
      const first = consoleCommand();
      expect(first.code).toBe(0);
      const link = first.stdout.trim();
      expect(link).toStartWith(new URL(sidecar.ready.url).origin + "/#k=");
      expect(first.stderr).toContain(`the console of pid ${sidecar.ready.pid}, serving ${join(dir.path, "checkout")}`);
      const second = consoleCommand(["--pid", String(sidecar.ready.pid)]).stdout.trim();
      expect(second).not.toBe(link);

      const opened = await redeem(link);
      expect(opened.status).toBe(200);
      const { secret } = (await opened.json()) as { secret: string };
      expect((await redeem(link)).status).toBe(401); // spent
      expect((await redeem(second)).status).toBe(200);

      const events = await fetch(new URL("/operator/events", link), { headers: { "Sidecar-Page-Secret": secret } });
      const reader = events.body!.getReader();
      let text = "";
      const stateEvent = () => text.split("\n\n").find((event) => event.startsWith("event: state\n"));
      while (!stateEvent()) text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      const data = stateEvent()!.split("\n").find((line) => line.startsWith("data: "))!;
      expect(JSON.parse(data.slice(6)).run).toMatchObject({ workdir: join(dir.path, "checkout"), pid: sidecar.ready.pid });

      const runs = statSync(join(runtimeDir, "sidecar"));
      expect(runs.mode & 0o777).toBe(0o700);
    },
    SPAWNED_TEST_MS,
  );

  test(
    "several running: it names each and asks for --pid; --pid picks one; a pid that is not a sidecar of yours is said so",
    async () => {
      await using a = await serve("checkout");
      await using b = await serve("second");
      const both = consoleCommand();
      expect(both.code).toBe(2);
      expect(both.stdout).toBe("");
      expect(both.stderr).toContain("2 sidecars of yours are running; name one:");
      expect(both.stderr).toContain(`--pid ${a.ready.pid}   ${join(dir.path, "checkout")}`);
      expect(both.stderr).toContain(`--pid ${b.ready.pid}   ${join(dir.path, "second")}`);
      expect(consoleCommand(["--pid", String(b.ready.pid)]).stdout.trim()).toStartWith(new URL(b.ready.url).origin + "/#k=");
      const wrong = consoleCommand(["--pid", String(process.pid)]);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain(`No sidecar of yours runs with pid ${process.pid}`);
      expect(consoleCommand(["--pid", "abc"]).stderr).toContain('--pid takes a process id (a positive whole number), not "abc".');
    },
    SPAWNED_TEST_MS,
  );

  test(
    "none running: exit 1 saying so; a sidecar that stopped removed its socket",
    async () => {
      const sidecar = await serve("checkout");
      await sidecar.stop();
      const none = consoleCommand();
      expect(none.code).toBe(1);
      expect(none.stderr).toContain("no sidecar of yours is running");
    },
    SPAWNED_TEST_MS,
  );

  test(
    "another OS user cannot mint a link: the runs folder is closed to it, whatever it names",
    async () => {
      if (spawnSync("id", ["-u", OTHER_USER]).status !== 0) execFileSync("useradd", ["--no-create-home", "--shell", "/usr/sbin/nologin", OTHER_USER]);
      await using sidecar = await serve("checkout");
      const pid = String(sidecar.ready.pid);
      for (const args of [["--pid", pid], []]) {
        const other = consoleCommand(args, OTHER_USER);
        expect(other.code).not.toBe(0);
        expect(other.stdout).not.toContain("#k=");
      }
      // Its socket, named outright, cannot be reached either.
      const socket = join(runtimeDir, "sidecar", `${pid}.sock`);
      const script = `const c = require("node:net").connect(${JSON.stringify(socket)}); c.on("connect", () => c.write("link\\n")); c.on("data", (d) => process.stdout.write(d)); c.on("error", (e) => console.log(e.code));`;
      const direct = spawnSync("runuser", ["-u", OTHER_USER, "--", process.execPath, "-e", script], { encoding: "utf8", timeout: 60_000 });
      expect(direct.stdout.trim()).toBe("EACCES");
      // The owner still can.
      expect(consoleCommand(["--pid", pid]).stdout).toContain("#k=");
    },
    SPAWNED_TEST_MS,
  );
});
