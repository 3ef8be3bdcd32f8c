// Stopping a child stops its whole tree, including grandchildren that ignore SIGTERM.
import { expect, test } from "bun:test";
import { randomUUID } from "node:crypto";
import { processesWithMarker, waitForNoLeftovers } from "../../build/leftovers.ts";
import { spawnGroup, stopGroup } from "../../src/process/group.ts";

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
