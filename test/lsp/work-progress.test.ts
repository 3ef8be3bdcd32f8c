// A progress token the server created counts as running until it begins, ends, or its grace runs
// out; one that reported stops counting once it falls silent. Both are timed here on Bun's fake
// timers (the hardening test drives a real server's race; test/lsp/watching.test.ts pyright's silence).
import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import { CREATED_PROGRESS_GRACE_MS, SILENT_PROGRESS_MS, WorkProgress } from "../../src/lsp/work-progress.ts";

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

describe("a token that reported", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("and then says nothing for SILENT_PROGRESS_MS is no longer running, is named as silent, and a change is heard", () => {
    let changes = 0;
    const progress = new WorkProgress(() => changes++);
    progress.began("t1", "");
    progress.reported("t1", "2 files to analyze");
    expect(progress.active.get("t1")).toBe("2 files to analyze");
    jest.advanceTimersByTime(SILENT_PROGRESS_MS - 1);
    expect([...progress.active.keys()]).toEqual(["t1"]);
    jest.advanceTimersByTime(1);
    expect([...progress.active.keys()]).toEqual([]);
    expect(progress.silent.get("t1")).toBe("2 files to analyze");
    expect(changes).toBe(1);
    expect(progress.words()).toContain('reported "2 files to analyze", never ended it');
  });

  test("keeps running while its reports keep coming, and comes back when it reports again after falling silent", () => {
    let changes = 0;
    const progress = new WorkProgress(() => changes++);
    progress.began("t1", "Indexing");
    for (let i = 0; i < 5; i++) {
      jest.advanceTimersByTime(SILENT_PROGRESS_MS - 1);
      progress.reported("t1", `${5 - i} files`);
    }
    expect(progress.active.get("t1")).toBe("Indexing: 1 files");
    jest.advanceTimersByTime(SILENT_PROGRESS_MS);
    expect(progress.silent.has("t1")).toBe(true);
    progress.reported("t1", "0 files");
    expect(progress.active.get("t1")).toBe("Indexing: 0 files");
    expect(progress.silent.size).toBe(0);
    expect(progress.starts).toBe(1); // coming back is not a new start
    progress.ended("t1");
    jest.advanceTimersByTime(SILENT_PROGRESS_MS * 3);
    expect([...progress.active.keys()]).toEqual([]);
    expect(progress.silent.size).toBe(0);
    expect(changes).toBe(1);
  });

  test("a token that only began (gopls loading its packages) runs until it ends, however long it is silent", () => {
    const progress = new WorkProgress(() => {});
    progress.began("load", "Loading packages");
    jest.advanceTimersByTime(SILENT_PROGRESS_MS * 20);
    expect(progress.active.get("load")).toBe("Loading packages");
    expect(progress.words()).toBe('working: "Loading packages"');
  });

  test("a report for a token that ended or never began is ignored", () => {
    const progress = new WorkProgress(() => {});
    progress.reported("ghost", "1 file");
    progress.began("t1", "x");
    progress.ended("t1");
    progress.reported("t1", "late");
    jest.advanceTimersByTime(SILENT_PROGRESS_MS * 2);
    expect(progress.active.size + progress.silent.size).toBe(0);
  });
});
