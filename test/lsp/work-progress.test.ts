// A progress token the server created counts as running until it begins, ends, or its grace runs
// out; the grace is timed here on Bun's fake timers (the hardening test drives a real server's race).
import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import { CREATED_PROGRESS_GRACE_MS, WorkProgress } from "../../src/lsp/work-progress.ts";

describe("a created progress token", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("counts as running through its grace, and is dropped (with a change heard) when the grace runs out", () => {
    let changes = 0;
    const progress = new WorkProgress(() => changes++);
    progress.created("t1");
    expect([...progress.active.keys()]).toEqual(["t1"]);
    jest.advanceTimersByTime(CREATED_PROGRESS_GRACE_MS - 1);
    expect([...progress.active.keys()]).toEqual(["t1"]);
    expect(changes).toBe(0);
    jest.advanceTimersByTime(1);
    expect([...progress.active.keys()]).toEqual([]);
    expect(changes).toBe(1);
  });

  test("that begins within its grace runs until it ends, however long", () => {
    let changes = 0;
    const progress = new WorkProgress(() => changes++);
    progress.created("t1");
    progress.began("t1", "indexing");
    jest.advanceTimersByTime(CREATED_PROGRESS_GRACE_MS * 10);
    expect(progress.active.get("t1")).toBe("indexing");
    expect(progress.starts).toBe(1);
    progress.ended("t1");
    expect([...progress.active.keys()]).toEqual([]);
    expect(changes).toBe(0); // changes the client made itself are not reported back to it
  });
});
