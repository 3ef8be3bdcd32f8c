// Stopping a child stops its whole tree, including grandchildren that ignore SIGTERM.
import { expect, test } from "bun:test";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { processesWithMarker, waitForNoLeftovers } from "../../build/leftovers.ts";
import { procStatFields } from "../../src/platform/proc-stat.ts";
import { killRemains, spawnGroup, stopGroup } from "../../src/process/group.ts";

test("stopGroup reaps the child and a grandchild that traps SIGTERM", async () => {
  const marker = randomUUID();
  const child = spawnGroup("sh", ["-c", "(trap '' TERM; sleep 600) & sleep 600"], {
    env: { ...process.env, GROUP_TEST_MARK: marker },
    stdio: "ignore",
  });
  for (let i = 0; i < 50 && processesWithMarker("GROUP_TEST_MARK", marker).length < 2; i++) await Bun.sleep(20);
  expect(processesWithMarker("GROUP_TEST_MARK", marker).length).toBeGreaterThanOrEqual(2);
  await stopGroup(child, 300);
  expect(await waitForNoLeftovers("GROUP_TEST_MARK", marker, 3_000)).toEqual([]);
});

test("a child's group is killed within about 2 s once its parent dies without cleaning up", async () => {
  const marker = randomUUID();
  // A separate Bun process plays the sidecar: it spawns a group (with a grandchild), then is SIGKILLed.
  const script = `
    import { spawnGroup } from ${JSON.stringify(`${import.meta.dir}/../../src/process/group.ts`)};
    spawnGroup("sh", ["-c", "sleep 600 & sleep 600"], { stdio: "ignore" });
    console.log("ready");
    setInterval(() => {}, 1000);
  `;
  const parent = Bun.spawn([process.execPath, "-e", script], { env: { ...process.env, GROUP_TEST_MARK: marker }, stdout: "pipe" });
  const reader = parent.stdout.getReader();
  await reader.read();
  for (let i = 0; i < 50 && processesWithMarker("GROUP_TEST_MARK", marker).length < 3; i++) await Bun.sleep(20);
  expect(processesWithMarker("GROUP_TEST_MARK", marker).length).toBeGreaterThanOrEqual(3);
  parent.kill("SIGKILL");
  await parent.exited;
  expect(await waitForNoLeftovers("GROUP_TEST_MARK", marker, 2_500)).toEqual([]);
});

test("while its parent lives, a group's watcher waits without starting anything (no polling)", async () => {
  const child = spawnGroup("sleep", ["600"], { stdio: "ignore" });
  try {
    const findWatcher = () =>
      readdirSync("/proc").find((pid) => {
        try {
          const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
          return argv.includes("sidecar-orphan-watch") && argv.includes(String(child.pid));
        } catch {
          return false;
        }
      });
    // The watcher is spawned alongside the child: on a loaded machine its exec can take a moment.
    let watcher = findWatcher();
    for (let i = 0; i < 100 && watcher === undefined; i++) {
      await Bun.sleep(20);
      watcher = findWatcher();
    }
    expect(watcher).toBeDefined();
    // A watcher that polled would start a `sleep` (or a `grep`) several times in this window.
    const started = new Set<string>();
    const until = Date.now() + 1_500;
    while (Date.now() < until) {
      for (const pid of readdirSync("/proc")) if (procStatFields(Number(pid))?.[1] === watcher) started.add(pid);
      await Bun.sleep(20);
    }
    expect([...started]).toEqual([]);
  } finally {
    await stopGroup(child, 300);
  }
});

test("killRemains kills daemons that left the group, and what they forked while the sweep ran", async () => {
  const marker = randomUUID();
  // Five daemons fork sleepers without pause: those forked after a sweep has listed /proc are found
  // only by the next one. (A process in the middle of an exec, showing no environment for that
  // moment, is missed by one sweep the same way: about one daemon in fifty on a busy machine.)
  const daemon = "setsid sh -c 'while :; do sleep 600 & done' >/dev/null 2>&1 </dev/null &";
  const child = spawnGroup("sh", ["-c", `for i in 1 2 3 4 5; do ${daemon} done; sleep 0.3`], {
    env: { ...process.env, GROUP_TEST_MARK: marker },
    stdio: "ignore",
  });
  try {
    await new Promise((resolve) => child.once("exit", resolve));
    await killRemains(child);
    expect(await waitForNoLeftovers("GROUP_TEST_MARK", marker, 500)).toEqual([]);
  } finally {
    for (const pid of processesWithMarker("GROUP_TEST_MARK", marker)) process.kill(pid, "SIGKILL");
  }
});
