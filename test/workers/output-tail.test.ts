// OutputTail: the last bytes and the last line of a worker's output, whatever the chunking.
import { describe, expect, test } from "bun:test";
import { OutputTail } from "../../src/workers/output-tail.ts";

describe("a worker's output tail", () => {
  test("a line that never ends is kept by its head; the next complete line replaces it", () => {
    const tail = new OutputTail(1024);
    const chunk = Buffer.from("x".repeat(64 * 1024));
    for (let i = 0; i < 200; i++) tail.push(chunk); // 12.5 MiB with no newline
    expect(tail.lastLine()).toBe(`${"x".repeat(200)}…`);
    expect(tail.text()).toBe("x".repeat(1024));
    tail.push(Buffer.from("\nstep 2 of 3\n"));
    expect(tail.lastLine()).toBe("step 2 of 3");
  });

  test("a character split across two chunks is decoded whole", () => {
    const tail = new OutputTail(1024);
    const euro = Buffer.from("price: 5 €");
    tail.push(euro.subarray(0, euro.length - 1));
    tail.push(Buffer.concat([euro.subarray(euro.length - 1), Buffer.from("\n")]));
    expect(tail.lastLine()).toBe("price: 5 €");
  });
});
