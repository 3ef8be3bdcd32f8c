// The JSON lines a stdio MCP server writes, read as they arrive.

/** The JSON lines of a stream, as they arrive. */
export async function* jsonLines(stream: NodeJS.ReadableStream): AsyncGenerator<unknown> {
  let buffered = "";
  for await (const chunk of stream) {
    buffered += chunk.toString();
    for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
      yield JSON.parse(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
    }
  }
}
