// Background work a service starts for later waits until the run serves: a probe that spawns
// processes during connect slowed the start to the ready line, and ran for `sidecar tools` too.
import { expect, test } from "bun:test";
import { Lifecycle } from "../../src/host/lifecycle.ts";
import { withRunTools } from "../../src/cli/run-tools.ts";
import { parseConfig, settle } from "../../src/config/load.ts";
import { bunPrimitives } from "../../src/runtime/bun.ts";
import { recordingPython } from "../helpers/recording-python.ts";
import { tempDir } from "../helpers/temp-dir.ts";

test("a task kept for serving runs only after serving(), after the current turn; one kept later runs at once", async () => {
  const lifecycle = new Lifecycle();
  const ran: string[] = [];
  lifecycle.afterServing(() => ran.push("probe"));
  await new Promise((resolve) => setImmediate(resolve));
  expect(ran).toEqual([]);
  lifecycle.serving();
  ran.push("ready line");
  await new Promise((resolve) => setImmediate(resolve));
  expect(ran).toEqual(["ready line", "probe"]);
  lifecycle.afterServing(() => ran.push("late"));
  await new Promise((resolve) => setImmediate(resolve));
  expect(ran).toEqual(["ready line", "probe", "late"]);
});

test("a task kept for serving does not start once the run began closing", async () => {
  const lifecycle = new Lifecycle();
  const ran: string[] = [];
  lifecycle.afterServing(() => ran.push("probe"));
  lifecycle.serving();
  void lifecycle.close();
  await new Promise((resolve) => setImmediate(resolve));
  expect(ran).toEqual([]);
});

test("listing a run's tools with the debug resource starts no python probe", async () => {
  await using dir = await tempDir();
  await using python = await recordingPython();
  const settings = settle(parseConfig({ workdir: dir.path, conversation: "c", resources: { debugAdapters: {} } }));
  const names = await withRunTools(settings, bunPrimitives, (registry) => registry.all().map((tool) => tool.name));
  expect(names).toContain("debug");
  await Bun.sleep(500); // a probe started in the background would have run python3 by now
  expect(python.started()).toBe(false);
});

test("with a gate, a kept task starts when the gate starts it, and not into a shutdown", async () => {
  const lifecycle = new Lifecycle();
  const ran: string[] = [];
  const gate: (() => void)[] = [];
  lifecycle.afterServing(() => ran.push("probe"));
  lifecycle.serving((start) => gate.push(start));
  await new Promise((resolve) => setImmediate(resolve));
  expect(ran).toEqual([]);
  gate.shift()!();
  expect(ran).toEqual(["probe"]);
  lifecycle.afterServing(() => ran.push("late"));
  void lifecycle.close();
  gate.shift()!();
  expect(ran).toEqual(["probe"]);
});
