// The request body bound, refused so that the client hears it: a body past the bound is read to its
// end and discarded before the 413 leaves, since a client that writes its whole body before reading
// (most do) gets EPIPE, and never the answer, from a server that stops reading and closes.

/** The largest request body the sidecar takes, on /mcp and every other route. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * How much of a refused body is read (and discarded) so that its sender gets the 413. Past this the
 * sidecar stops reading and closes: a sender of more than 64 MiB is not worth the time.
 */
export const MAX_DRAINED_BODY_BYTES = 16 * MAX_BODY_BYTES;

type BodyRead = { kind: "within"; body: Uint8Array<ArrayBuffer> | null } | { kind: "too_large"; sentence: string };

/** Reads the request's body whole if it is within MAX_BODY_BYTES; else drains it and says why it was refused. */
export async function readBoundedBody(request: Request): Promise<BodyRead> {
  if (!request.body) return { kind: "within", body: null };
  const reader = request.body.getReader();
  const declared = Number.parseInt(request.headers.get("content-length") ?? "", 10);
  const chunks: Uint8Array[] = [];
  let size = 0;
  // A Content-Length past the bound is refused without keeping a byte; a body without one is kept
  // until it passes the bound.
  let keeping = !(declared > MAX_BODY_BYTES);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_BODY_BYTES) keeping = false;
    if (keeping) chunks.push(value);
    else chunks.length = 0;
    if (size > MAX_DRAINED_BODY_BYTES) {
      // Stop reading; the connection closes with the answer, which a sender still writing may miss.
      void reader.cancel().catch(() => {});
      break;
    }
  }
  if (keeping) return { kind: "within", body: concat(chunks, size) };
  const measured = size > MAX_DRAINED_BODY_BYTES ? `more than ${MAX_DRAINED_BODY_BYTES} bytes` : `${size} bytes`;
  return {
    kind: "too_large",
    sentence: `Request body too large: it is ${measured}, over the limit of ${MAX_BODY_BYTES} bytes (4 MiB); send a smaller request (split a large argument over several calls).`,
  };
}

function concat(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.length;
  }
  return whole;
}
