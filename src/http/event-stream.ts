// Event-stream responses that open at once: their headers leave before the first event.

const OPENING_COMMENT = new TextEncoder().encode(": stream open\n\n");

/**
 * An event stream with an SSE comment first. Bun sends a streamed response's headers only with its
 * first bytes, and an MCP event stream may stay silent until its first keep-alive (15 s): a client
 * waiting for the headers of a GET /mcp or of a quiet call waited that long, and one that cancels
 * a call only once its headers came could not cancel it sooner. Clients skip comment lines.
 */
export function openedAtOnce(response: Response): Response {
  if (!response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) return response;
  const reader = response.body.getReader();
  const opened = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(OPENING_COMMENT);
    },
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(opened, { status: response.status, statusText: response.statusText, headers: response.headers });
}
