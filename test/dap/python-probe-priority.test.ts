// The background python probe (which python has debugpy) runs at the lowest priority while nothing
// waits for it, and at the children's usual one once a call does: at the ready line, through a pyenv
// shim, it took the CPU from the agent's first searches (issue 40), and a launch waiting behind a
// probe at nice 19 on a busy machine was slow (S4). Linux with autogroup (this machine) only: the
// priority is the scheduling group's, and without autogroup there is none to read.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { probeInBackground, waitingForBackground } from "../../src/dap/debugpy-probe.ts";
import { CHILD_NICE_STEPS } from "../../src/process/group.ts";
import { MAX_NICE } from "../../src/platform/priority.ts";
import { autogroupNice } from "../helpers/autogroup.ts";
import { tempDir } from "../helpers/temp-dir.ts";

test.skipIf(!existsSync("/proc/self/autogroup"))("the probe's group is at the lowest priority until a call waits for it, then at the children's usual one", async () => {
  await using dir = await tempDir();
  await using tools = await tempDir();
  // A python3 that says its pid, then waits long enough to be looked at, then asks the real one.
  const pidFile = `${tools.path}/pid`;
  const python = `${tools.path}/bin/python3`;
  await tools.write({ "bin/python3": `#!/bin/sh\necho $$ > ${pidFile}.tmp && mv ${pidFile}.tmp ${pidFile}\nsleep 1.5\nexec /usr/bin/python3 "$@"\n` });
  await Bun.$`chmod +x ${python}`;
  const ours = autogroupNice(process.pid);
  const probe = probeInBackground(() => [python], dir.path, { workspace: false, workdir: dir.path });
  for (let i = 0; i < 100 && !existsSync(pidFile); i++) await Bun.sleep(20);
  const pid = Number(readFileSync(pidFile, "utf8"));
  expect(autogroupNice(pid)).toBe(Math.min(MAX_NICE, ours + MAX_NICE));
  waitingForBackground();
  expect(autogroupNice(pid)).toBe(ours + CHILD_NICE_STEPS);
  await probe;
});
