// A tool call's way to ask the person in front of its client: MCP elicitation in form mode, sent on
// the call's own response stream, offered only where the session's client declared it.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ElicitResultSchema, type ElicitRequest, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { ClientElicitation, ElicitationAnswer, ElicitationForm } from "../tool/elicitation.ts";

/** The first version whose elicitation request names its mode (2025-06-18 has form mode only, unnamed). */
const MODE_FIELD_SINCE = "2025-11-25";

/**
 * Checks an elicitation's answer against its form. Built on first use and shared by every session:
 * one Ajv per session cost tens of ms of main thread and about a MB of heap, for the few runs that
 * ever ask through a client. The SDK's Server is given it too (its `elicitInput` checks with it).
 */
export const ELICITATION_ANSWERS: jsonSchemaValidator = (() => {
  let shared: AjvJsonSchemaValidator | undefined;
  return { getValidator: (schema) => (shared ??= new AjvJsonSchemaValidator()).getValidator(schema) };
})();

/** What the SDK hands a request handler, as far as asking the client goes. */
export interface ElicitingExtra {
  requestId: RequestId;
  sendRequest: Server["request"];
}

/**
 * The calling client's elicitation for one call, or undefined when its session did not declare form
 * elicitation, or when the call is answered as one JSON body (nothing can be asked on the way).
 */
export function clientElicitation(
  server: Server,
  protocolVersion: string,
  extra: ElicitingExtra,
  answeredAsJson: boolean,
): ClientElicitation | undefined {
  const declared = server.getClientCapabilities()?.elicitation;
  const form = declared !== undefined && (declared.form !== undefined || Object.keys(declared).length === 0);
  if (!form || answeredAsJson) return undefined;
  return {
    protocolVersion,
    async ask(form: ElicitationForm, signal: AbortSignal, timeoutMs: number): Promise<ElicitationAnswer> {
      // The fields follow the spec of the session's version (questions/client-port.ts); the SDK's
      // type is the union of every version's, which a field typed loosely does not narrow to.
      const params = (protocolVersion >= MODE_FIELD_SINCE ? { mode: "form", ...form } : form) as unknown as ElicitRequest["params"];
      let result;
      try {
        result = await extra.sendRequest({ method: "elicitation/create", params }, ElicitResultSchema, { signal, timeout: timeoutMs });
      } catch (error) {
        throw new Error(`the client answered the question with an error (${(error as Error).message.replace(/^MCP error -?\d+: /, "")})`);
      }
      if (result.action !== "accept") return { action: result.action };
      const content = result.content ?? {};
      const check = ELICITATION_ANSWERS.getValidator(form.requestedSchema)(content);
      if (!check.valid) throw new Error(`the client's answer ${JSON.stringify(content).slice(0, 300)} does not fit the question (${check.errorMessage})`);
      return { action: "accept", content };
    },
  };
}
