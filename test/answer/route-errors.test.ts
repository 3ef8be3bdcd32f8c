// Routes other than /mcp answer errors as plain JSON {error: {code, message}} with a stable code,
// never as JSON-RPC envelopes; a /harness route says which surface's token it needs.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROUTE_ERROR_CODES } from "../../src/answer/route-error.ts";
import { MAX_BODY_BYTES } from "../../src/http/app.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const RUN = { resources: { questions: { space: "local" } } };

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string }; jsonrpc?: string };
  expect(body.jsonrpc).toBeUndefined();
  expect(Object.keys(body)).toEqual(["error"]);
  return body.error;
}

describe("errors of the harness routes", () => {
  test("a token of another surface is told the route needs the default surface's token", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, RUN);
    const ask = (headers: Record<string, string>) =>
      t.fetch("/harness/permission", { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: '{"question":"May I?"}' });

    const plan = await ask({ Authorization: `Bearer ${t.run.surfaces.plan}` });
    expect(plan.status).toBe(401);
    expect(plan.headers.get("www-authenticate")).toBe('Bearer realm="sidecar"');
    expect(await errorOf(plan)).toEqual({
      code: "wrong_surface",
      message: "This route needs the default surface's token; the one sent is the plan surface's.",
    });
    const none = await ask({});
    expect(none.status).toBe(401);
    expect(await errorOf(none)).toMatchObject({ code: "unauthorized", message: expect.stringContaining("the default surface's token") });
  });

  test("guards, bodies and unknown routes answer plain JSON off /mcp, and JSON-RPC on it", async () => {
    await using dir = await tempDir();
    await using t = await startTestRun(dir.path, RUN);
    const auth = { Authorization: `Bearer ${t.run.surfaces.default}`, "Content-Type": "application/json" };
    const port = new URL(t.run.url).port;

    const badBody = await t.fetch("/harness/permission", { method: "POST", headers: auth, body: "not json" });
    expect(badBody.status).toBe(400);
    expect((await errorOf(badBody)).code).toBe("invalid_body");

    const tooLarge = await t.fetch("/harness/permission", { method: "POST", headers: auth, body: "x".repeat(MAX_BODY_BYTES + 1) });
    expect(tooLarge.status).toBe(413);
    expect((await errorOf(tooLarge)).code).toBe("body_too_large");

    const rebound = await fetch(`http://127.0.0.1:${port}/harness/permission`, { method: "POST", headers: { ...auth, Host: `evil.example:${port}` }, body: "{}" });
    expect(rebound.status).toBe(403);
    expect((await errorOf(rebound)).code).toBe("forbidden_host");

    const missing = await t.fetch("/harness/nothing-here", { headers: auth });
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).code).toBe("not_found");

    // /mcp keeps JSON-RPC, which MCP clients read.
    const mcp = await fetch(`http://127.0.0.1:${port}/mcp`, { method: "POST", headers: { ...auth, Host: `evil.example:${port}` }, body: "{}" });
    expect(mcp.status).toBe(403);
    expect(await mcp.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
  });
});

test("docs/harness.md lists every route error code, and no code the sidecar does not have", () => {
  const doc = readFileSync(join(import.meta.dir, "..", "..", "docs", "harness.md"), "utf8");
  const section = doc.slice(doc.indexOf("### Errors of the routes"));
  const end = section.indexOf("\n#", 5);
  const listed = [...section.slice(0, end).matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
  expect(listed.sort()).toEqual(Object.keys(ROUTE_ERROR_CODES).sort());
});
