// The pure parts of the DAP client: framing over a byte stream, the output ring, stale references.
import { describe, expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { adapterById, withoutAdapterNoise } from "../../src/dap/catalog.ts";
import { DapConnection } from "../../src/dap/connection.ts";
import { OutputRing } from "../../src/dap/output-ring.ts";
import { ReferenceTable } from "../../src/dap/references.ts";

function frame(message: object): Buffer {
  const body = Buffer.from(JSON.stringify(message), "utf8");
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
}

describe("DAP framing", () => {
  test.each([
    ["one chunk", (bytes: Buffer) => [bytes]],
    ["byte by byte", (bytes: Buffer) => [...bytes].map((b) => Buffer.from([b]))],
    ["split inside the header", (bytes: Buffer) => [bytes.subarray(0, 7), bytes.subarray(7)]],
  ])("a response and an event arriving %s are both delivered", async (_, split) => {
    const fromAdapter = new PassThrough();
    const toAdapter = new PassThrough();
    const connection = new DapConnection(fromAdapter, toAdapter);
    const events: string[] = [];
    connection.onEvent((event) => events.push(event.event));
    const answer = connection.request("threads");
    const bytes = Buffer.concat([
      frame({ seq: 1, type: "event", event: "output", body: { output: "é\n" } }),
      frame({ seq: 2, type: "response", request_seq: 1, command: "threads", success: true, body: { threads: [{ id: 7, name: "main" }] } }),
    ]);
    for (const chunk of split(bytes)) fromAdapter.write(chunk);
    expect(await answer).toEqual({ threads: [{ id: 7, name: "main" }] });
    expect(events).toEqual(["output"]);
  });

  test("a refusal rejects with the adapter's words, and a closed stream rejects what is pending", async () => {
    const fromAdapter = new PassThrough();
    const connection = new DapConnection(fromAdapter, new PassThrough());
    const refused = connection.request("evaluate");
    fromAdapter.write(frame({ seq: 1, type: "response", request_seq: 1, command: "evaluate", success: false, body: { error: { id: 1, format: "no frame {n}", variables: { n: "3" } } } }));
    await expect(refused).rejects.toThrow("The debug adapter refused evaluate: no frame 3");
    const pending = connection.request("stackTrace");
    fromAdapter.destroy();
    await expect(pending).rejects.toThrow("stackTrace was not answered: the debug adapter closed its connection");
  });
});

describe("output ring", () => {
  test("each reader gets what it has not seen; \\r\\n reads as \\n", () => {
    const ring = new OutputRing(100);
    ring.append("a\r\nb");
    expect(ring.read("report")).toMatchObject({ text: "a\nb", dropped: 0 });
    ring.append("c\r");
    expect(ring.read("report")).toMatchObject({ text: "c", dropped: 0 });
    ring.append("\n");
    expect(ring.read("report")).toMatchObject({ text: "\n", dropped: 0 });
    expect(ring.read("output")).toMatchObject({ text: "a\nbc\n", dropped: 0 });
  });

  test("a stderr line does not land inside a stdout line delivered in fragments", () => {
    const ring = new OutputRing(100);
    ring.append("total 5", "stdout");
    ring.append("warn\n", "stderr");
    ring.append("\n", "stdout");
    expect(ring.read("output").text).toBe("warn\ntotal 5\n");
  });

  test("text pushed out of the bound is counted as dropped for a reader that missed it", () => {
    const ring = new OutputRing(10);
    ring.append("0123456789");
    ring.append("abcde");
    expect(ring.read("output")).toMatchObject({ text: "56789abcde", dropped: 5 });
    expect(ring.read("output")).toMatchObject({ text: "", dropped: 0 });
  });

  test("pages return the whole output a page at a time, from the cursor or from an offset", () => {
    const ring = new OutputRing(100);
    ring.append("0123456789\n");
    expect(ring.page("output", 4)).toMatchObject({ text: "0123", from: 0, to: 4, more: 7, total: 11 });
    expect(ring.page("output", 4)).toMatchObject({ text: "4567", from: 4, to: 8, more: 3 });
    expect(ring.page("output", 4)).toMatchObject({ text: "89\n", from: 8, to: 11, more: 0 });
    expect(ring.page("output", 4, 2)).toMatchObject({ text: "2345", from: 2, to: 6 });
    const small = new OutputRing(5);
    small.append("abcdefgh\n");
    expect(small.page("output", 4, 0)).toMatchObject({ text: "efgh", from: 4, dropped: 4, more: 1 });
  });
});

describe("references", () => {
  test("an id from before a resume is refused as stale, an unknown one as unknown", () => {
    const table = new ReferenceTable();
    const frame = table.mint("frame", 1000, 1);
    expect(table.resolve("frame", frame)).toMatchObject({ dapId: 1000, threadId: 1 });
    expect(() => table.resolve("variables", frame)).toThrow("is a frame id, not a variables reference");
    table.moveOn();
    const fresh = table.mint("frame", 1000, 1); // the adapter reused its id; ours is new
    expect(fresh).not.toBe(frame);
    expect(() => table.resolve("frame", frame)).toThrow("the program moved on — call stack again");
    expect(() => table.resolve("frame", 999)).toThrow("There is no frame id 999");
  });
});

describe("delve's own lines on the program's stdio", () => {
  test("its second removal of the binary it built for the sidecar is dropped; the program's lines stay", () => {
    const delve = adapterById("delve");
    const { output: binary } = delve.launchArguments({ program: "/work/app", args: [], cwd: "/work/app", stdin: "/dev/null", env: {} }) as { output: string };
    const program = 'read "to go\\n"\ncould not remove /tmp/mine: remove /tmp/mine: no such file or directory\n';
    const text = `${program}could not remove ${binary}: remove ${binary}: no such file or directory\n`;
    expect(withoutAdapterNoise(delve, text)).toBe(program);
    expect(withoutAdapterNoise(adapterById("debugpy"), text)).toBe(text);
  });
});
