// packages/harness-client against a real `sidecar serve` process: startSidecar() reads the ready
// line, the reference question port answers ask_user and a permission prompt, the reference bridge
// answers an eval cell's tool() calls, a route error arrives as a typed HarnessRouteError, and
// stop() ends the run cleanly.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "../../build/spawn-sidecar.ts";
import {
  HarnessRouteError,
  startBridge,
  startQuestionPort,
  startSidecar,
  ToolDenied,
  type Bridge,
  type QuestionPort,
  type RunningSidecar,
} from "../../packages/harness-client/src/index.ts";
import { requireSystemPython, SYSTEM_PYTHON } from "../kernel/helpers.ts";
import { tempDir, type TempDir } from "../helpers/temp-dir.ts";

// A real sidecar process and a Python kernel on a loaded 2-core machine.
setDefaultTimeout(120_000);

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");
const PORT_TOKEN = "port-token-0123456789abcdef";
const BRIDGE_TOKEN = "bridge-token-0123456789abcdef";

let dir: TempDir;
let port: QuestionPort;
let bridge: Bridge;
let sidecar: RunningSidecar;
let agent: Client;

beforeAll(async () => {
  requireSystemPython();
  dir = await tempDir();
  port = await startQuestionPort({ token: PORT_TOKEN });
  bridge = await startBridge({
    token: BRIDGE_TOKEN,
    tools: {
      add: (args) => Number(args.a) + Number(args.b),
      delete_branch: () => {
        throw new ToolDenied("the operator keeps branches");
      },
    },
  });
  sidecar = await startSidecar({
    command: [process.execPath, MAIN],
    config: {
      workdir: dir.path,
      conversation: "conv-1",
      resources: {
        questions: { port: port.url, token: PORT_TOKEN, space: "space-1" },
        bridge: { url: bridge.url, token: BRIDGE_TOKEN },
        kernels: { python: SYSTEM_PYTHON },
      },
    },
  });
  agent = await connectClient(sidecar.url, sidecar.surfaces.default!, "harness-client-test");
});

afterAll(async () => {
  await agent?.close();
  await sidecar?.stop();
  await port?.close();
  await bridge?.close();
  await dir?.[Symbol.asyncDispose]();
});

describe("the harness client", () => {
  test("startSidecar returns the ready line's fields, typed", () => {
    expect(sidecar.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(sidecar.ready.pid).toBe(sidecar.child.pid!);
    expect(sidecar.ready.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Object.keys(sidecar.surfaces)).toContain("default");
    expect(sidecar.page).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#k=/); // the console, though a harness port answers questions
  });

  test("the reference question port receives the card and its answer completes ask_user", async () => {
    const call = agent.callTool({ name: "ask_user", arguments: { question: "Which region?", options: [{ label: "eu-west" }, { label: "us-east" }] } });
    const card = await port.nextCard();
    expect(card).toMatchObject({ kind: "question", space: "space-1", surface: "default", question: "Which region?" });
    expect(port.settle(card.id, { outcome: "answered", option_ids: ["o2"], text: "closer to the users" })).toBe(true);
    expect((await call).structuredContent).toMatchObject({ outcome: "answered", selected: ["us-east"], text: "closer to the users" });
  });

  test("a permission prompt goes through the port and comes back as a typed decision", async () => {
    const decision = sidecar.permission({ question: "Push to main?", space: "space-1" });
    const card = await port.nextCard();
    expect(card).toMatchObject({ kind: "permission", surface: null, options: [{ id: "allow" }, { id: "deny" }] });
    port.settle(card.id, { outcome: "answered", option_ids: ["deny"] });
    expect(await decision).toEqual({ outcome: "denied" });
  });

  test("the reference bridge answers a cell's tool() calls: a result, and a denial", async () => {
    const result = await agent.callTool({
      name: "eval",
      arguments: {
        language: "python",
        description: "Call the harness tools",
        code: 'print(tool("add", {"a": 2, "b": 40}))\ntry:\n    tool("delete_branch", {"name": "main"})\nexcept ToolDenied as e:\n    print("denied:", e)',
      },
    });
    const text = (result.content as { type: string; text?: string }[]).map((block) => block.text ?? "").join("\n");
    expect(result.isError, text).toBeFalsy();
    expect(text).toContain("42");
    expect(text).toContain("denied: the operator keeps branches");
    expect(bridge.requests.map((request) => [request.tool, request.conversation, request.origin])).toEqual([
      ["add", "conv-1", { tool: "eval", language: "python" }],
      ["delete_branch", "conv-1", { tool: "eval", language: "python" }],
    ]);
  });

  test("a route's error is a HarnessRouteError with its stable code", async () => {
    const failure = await sidecar.afterWrite([]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HarnessRouteError);
    expect(failure).toMatchObject({ status: 400, code: "invalid_body" });
  });

  test("stop() shuts the run down cleanly", async () => {
    await agent.close();
    expect(await sidecar.stop()).toEqual({ code: 0, signal: null });
  });
});
