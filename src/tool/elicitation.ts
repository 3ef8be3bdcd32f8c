// What a tool may ask the person in front of the calling client, through the client itself (MCP
// elicitation, form mode). The transport side lives in http/; a domain sees only these shapes.

/** One field of a form: the flat JSON Schema subset MCP elicitation allows (strings, numbers, booleans, enums). */
export type FormField = Record<string, unknown> & { type: "string" | "number" | "integer" | "boolean" | "array" };

/** What `elicitation/create` sends in form mode: a message, and a flat object of fields. */
export interface ElicitationForm {
  message: string;
  requestedSchema: { type: "object"; properties: Record<string, FormField>; required?: string[] };
}

/** What the person did: filled the form in (content checked against its schema), said no, or dismissed it. */
export type ElicitationAnswer = { action: "accept"; content: Record<string, unknown> } | { action: "decline" } | { action: "cancel" };

/** Present in a tool's context only when the calling session's client declared form elicitation. */
export interface ClientElicitation {
  /** The MCP version the session negotiated: 2025-11-25 takes titled enums and arrays, earlier ones `enum` + `enumNames`. */
  protocolVersion: string;
  /**
   * Shows the form in the client. Rejects, with a sentence, when the client answers with an error,
   * content that does not fit the form, or nothing within `timeoutMs`; aborting `signal` withdraws it.
   */
  ask(form: ElicitationForm, signal: AbortSignal, timeoutMs: number): Promise<ElicitationAnswer>;
}
