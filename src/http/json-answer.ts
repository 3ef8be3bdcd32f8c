// Answers in plain JSON for a client that accepts JSON but not event streams. The MCP transport may
// answer a POST either way; the SDK's answers with a stream, or refuses (406) a client that cannot
// take one, so the request goes through it as if it could, and its stream is read into JSON here.

/**
 * Marks a request the SDK sees as accepting event streams although its client takes JSON only: no
 * request to the client (an elicitation) can travel in an answer read into one JSON body.
 */
export const ANSWERED_AS_JSON_HEADER = "sidecar-answered-as-json";

/**
 * True when a POST's Accept header takes JSON but not an event stream: `application/json` alone,
 * `application/*`, `*\/*`, or no header at all (HTTP's "anything"). A client naming
 * text/event-stream gets the SDK's own answer, and one accepting neither its 406.
 */
export function acceptsOnlyJson(accept: string | null | undefined): boolean {
  const types = (accept ?? "")
    .split(",")
    .map((part) => part.split(";")[0]!.trim().toLowerCase())
    .filter(Boolean);
  if (types.length === 0) return true;
  if (types.includes("text/event-stream")) return false;
  return types.some((type) => type === "application/json" || type === "application/*" || type === "*/*");
}

/**
 * The SDK's answer as JSON: an event stream is read to its end and its responses kept (one object,
 * or an array for a batch). Notifications in it (progress) are dropped: such a client cannot take
 * them. A stream that ends with no response (a call the client cancelled) gets 202 and no body.
 */
export async function asJsonAnswer(response: Response): Promise<Response> {
  if (!response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) return response;
  const answers = eventData(await response.text())
    .map(parseOrNothing)
    .filter((message): message is Record<string, unknown> => isResponse(message));
  const headers = new Headers(response.headers);
  headers.delete("content-type");
  headers.delete("cache-control");
  headers.delete("x-accel-buffering");
  headers.delete("connection");
  if (answers.length === 0) return new Response(null, { status: 202, headers });
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify(answers.length === 1 ? answers[0] : answers), { status: response.status, headers });
}

/** The data of each event of an event stream's text (comments and empty events skipped). */
function eventData(text: string): string[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5))
        .join("\n"),
    )
    .filter((data) => data.trim() !== "");
}

function parseOrNothing(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

function isResponse(message: unknown): boolean {
  if (message === null || typeof message !== "object") return false;
  const { id, result, error } = message as Record<string, unknown>;
  return id !== undefined && (result !== undefined || error !== undefined);
}
