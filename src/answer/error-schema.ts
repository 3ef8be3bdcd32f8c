// The error shape every tool's outputSchema admits beside its answer, and the structuredContent of an
// error result. MCP clients validate structuredContent against outputSchema on error results too
// (the SDK client does), so the error shape has to be one branch of the declared schema.
import type { ErrorCode, ErrorShape } from "./error-codes.ts";

/** JSON Schema of an error result's structuredContent: `{error: {code, message, details?}}`, other fields allowed. */
const ERROR_RESULT_SCHEMA = {
  type: "object",
  properties: {
    error: {
      type: "object",
      properties: {
        code: { type: "string", description: "A stable code (docs/harness.md, \"Errors a program can read\")." },
        message: { type: "string" },
        details: { type: "object" },
      },
      required: ["code", "message"],
    },
  },
  required: ["error"],
} as const;

/** A tool's outputSchema as listed: its answer's schema or the error shape. */
export function withErrorShape<S extends object>(answer: S): { type: "object"; anyOf: [S, typeof ERROR_RESULT_SCHEMA] } {
  return { type: "object", anyOf: [answer, ERROR_RESULT_SCHEMA] };
}

/** The `error` member of an error result's structuredContent. */
export function errorShape(code: ErrorCode, message: string, details: Record<string, unknown> = {}): ErrorShape {
  return Object.keys(details).length ? { code, message, details } : { code, message };
}
