// DAP's wire format, both ways: `Content-Length: N\r\n\r\n` then N bytes of JSON.

/** The whole frames at the start of `buffer`, and what is left for the next read; `broken` when a header has no length (the framing is lost). */
export function takeFrames(buffer: Buffer): { bodies: string[]; rest: Buffer; broken?: string } {
  const bodies: string[] = [];
  let rest = buffer;
  for (;;) {
    const headerEnd = rest.indexOf("\r\n\r\n");
    if (headerEnd < 0) return { bodies, rest };
    const header = rest.subarray(0, headerEnd).toString("ascii");
    const length = Number(/Content-Length:\s*(\d+)/i.exec(header)?.[1]);
    if (!Number.isFinite(length)) return { bodies, rest, broken: header.slice(0, 80) };
    const bodyStart = headerEnd + 4;
    if (rest.length < bodyStart + length) return { bodies, rest };
    bodies.push(rest.subarray(bodyStart, bodyStart + length).toString("utf8"));
    rest = rest.subarray(bodyStart + length);
  }
}

/** One message as a frame. */
export function frame(message: object): Buffer {
  const json = Buffer.from(JSON.stringify(message), "utf8");
  return Buffer.concat([Buffer.from(`Content-Length: ${json.length}\r\n\r\n`, "ascii"), json]);
}
