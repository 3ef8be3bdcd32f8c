// The per-kernel queue: cells run one at a time in arrival order; a cancelled waiter never runs.
import { describe, expect, test } from "bun:test";
import { CellQueue, MAX_WAITING_CELLS } from "../../src/kernel/cell-queue.ts";

const live = () => new AbortController().signal;

describe("the cell queue", () => {
  test("admits cells in arrival order, one at a time", async () => {
    const queue = new CellQueue();
    const order: string[] = [];
    const first = await queue.turn(live());
    const waits: number[] = [];
    const second = queue.turn(live(), (ahead) => waits.push(ahead)).then((release) => (order.push("second"), release));
    const third = queue.turn(live(), (ahead) => waits.push(ahead)).then((release) => (order.push("third"), release));
    expect(waits).toEqual([1, 2]);
    expect(queue.waiting).toBe(2);
    first();
    (await second)();
    (await third)();
    expect(order).toEqual(["second", "third"]);
    expect(queue.runningSince).toBeUndefined();
  });

  test("a waiter cancelled while waiting never runs and leaves the line", async () => {
    const queue = new CellQueue();
    const first = await queue.turn(live());
    const cancel = new AbortController();
    const cancelled = queue.turn(cancel.signal);
    const after = queue.turn(live());
    cancel.abort();
    await expect(cancelled).rejects.toThrow(/cancelled while its cell waited .* it never ran/);
    expect(queue.waiting).toBe(1);
    first();
    (await after)();
  });

  test("past the bound a cell is refused with a sentence saying what to do", async () => {
    const queue = new CellQueue();
    const first = await queue.turn(live());
    const held = Array.from({ length: MAX_WAITING_CELLS }, () => queue.turn(live()));
    await expect(queue.turn(live())).rejects.toThrow(/cells are already waiting .* Wait for earlier calls to return/);
    first();
    for (const waiter of held) (await waiter)();
  });
});
