// A failure the model (or a harness) should read and act on, thrown by any layer below the tool wrapper.
import type { ErrorCode } from "./error-codes.ts";

/** What a failure carries besides its message: its stable code, and any facts for a harness to read. */
type FailureDetails = { code?: ErrorCode } & Record<string, unknown>;

/**
 * Thrown for a failure the model should read and act on. The tool wrapper (`tool/invoke.ts`) turns
 * it into an `isError` result whose `structuredContent.error` holds `code` (default `failed`), the
 * message and the details; anything else thrown becomes an `internal_error` result with its message.
 */
export class ToolFailure extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(message: string, { code = "failed", ...details }: FailureDetails = {}) {
    super(message);
    this.name = "ToolFailure";
    this.code = code;
    this.details = details;
  }
}
