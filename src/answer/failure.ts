// A failure the model (or a harness) should read and act on, thrown by any layer below the tool wrapper.

/**
 * Thrown for a failure the model should read and act on. The tool wrapper (`tool/invoke.ts`) turns
 * it into an `isError` result; anything else thrown becomes an internal-error result with its message.
 */
export class ToolFailure extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ToolFailure";
  }
}
