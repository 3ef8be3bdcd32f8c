// Run by `node` (whose sockets report EPIPE, as most clients' do): one HTTP/1.1 request on a raw
// socket, written whole before a byte is read. argv: port, a JSON object {requestLine, headers,
// message, size}: the body is `message` padded with spaces to `size` bytes. Prints one JSON line:
// {status, headers, body} or {error}.
import { connect } from "node:net";

const [port, spec] = process.argv.slice(2);
const { requestLine, headers, message, size } = JSON.parse(spec);
const text = JSON.stringify(message);
const body = Buffer.from(text + " ".repeat(size - Buffer.byteLength(text)));
const head = [requestLine, ...Object.entries({ ...headers, "Content-Length": String(body.length) }).map(([k, v]) => `${k}: ${v}`)].join("\r\n");

const socket = connect(Number(port), "127.0.0.1");
let received = Buffer.alloc(0);
let written = false;
const finish = (result) => {
  process.stdout.write(`${JSON.stringify(result)}\n`);
  socket.destroy();
  process.exit(0);
};
socket.on("error", (error) => finish({ error: `${written ? "reading" : "writing"} the request failed: ${error.code ?? error.message}` }));
socket.on("close", () => finish(answerOf(received, true) ?? { error: `the connection closed before a whole answer came: ${JSON.stringify(received.toString().slice(0, 200))}` }));
socket.on("data", (chunk) => {
  received = Buffer.concat([received, chunk]);
  const answer = answerOf(received, false);
  if (answer) finish(answer);
});
socket.pause(); // nothing is read before the whole request has left
socket.write(`${head}\r\n\r\n`);
socket.write(body, (error) => {
  if (error) return; // the error event reports it
  written = true;
  socket.resume();
});

function answerOf(bytes, closed) {
  const end = bytes.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString().split("\r\n");
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).trim().toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
  const rest = bytes.subarray(end + 4);
  const length = headers["content-length"] === undefined ? (closed ? rest.length : Number.NaN) : Number(headers["content-length"]);
  if (!(rest.length >= length)) return undefined;
  return { status: Number(statusLine.split(" ")[1]), headers, body: rest.subarray(0, length).toString() };
}
