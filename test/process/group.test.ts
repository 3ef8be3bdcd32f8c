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
