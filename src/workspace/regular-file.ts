// Opening a workspace file only when it is a regular file of a size a tool can hold. A FIFO named to
// a tool blocks the thread that opens it until a writer comes (it held both of Bun's pool threads,
// and every later call waited behind them); a socket or a device is no source file either. So the
// type is checked before the open, the open never blocks (O_NONBLOCK), and what was opened is
// checked again. A huge file wedges too: a 3 GB sparse file (no disk space, one `truncate`) took
// 40 s of the main thread and 3 GB of memory to read, so a file past FILE_READ_MAX_BYTES is refused,
// and no read goes past the size the file had when it was opened (one growing meanwhile included).
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from "node:fs";
import { open, stat, type FileHandle } from "node:fs/promises";

/** A path that leads to something other than a regular file where a file's content is wanted. */
export class NotARegularFile extends Error {
  override name = "NotARegularFile";
  constructor(readonly kind: string) {
    super(`it is ${kind}, not a regular file, so it was not opened`);
  }
}

/**
 * The most any tool reads of one file: far above any source file a language server or a parser
 * handles, far below what takes the main thread seconds to read.
 */
export const FILE_READ_MAX_BYTES = 64 * 1024 * 1024;

/** A regular file too large to read whole. */
export class FileTooLarge extends Error {
  override name = "FileTooLarge";
  constructor(
    readonly size: number,
    readonly maxBytes: number,
  ) {
    super(`it is ${sizeInWords(size)}, more than the ${sizeInWords(maxBytes)} a tool reads of one file, so it was not read`);
  }
}

/** What a non-regular file is, in words ("a FIFO (named pipe)"); undefined for a regular file. */
export function specialKind(info: Stats): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return "a folder";
  if (info.isFIFO()) return "a FIFO (named pipe)";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isSymbolicLink()) return "a symlink";
  return "a special file";
}

/** Read-only, and never waiting in open() for a FIFO's writer; regular files ignore O_NONBLOCK. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/**
 * Opens `path` (symlinks followed) for reading, refusing anything but a regular file
 * (NotARegularFile) and one larger than `maxBytes` (FileTooLarge). Read it with readOpened.
 */
export async function openRegularFile(path: string, maxBytes = FILE_READ_MAX_BYTES): Promise<{ handle: FileHandle; info: Stats }> {
  refuseUnreadable(await stat(path), maxBytes);
  const handle = await open(path, READ_FLAGS);
  try {
    const info = await handle.stat();
    refuseUnreadable(info, maxBytes); // swapped for something else between the check and the open
    return { handle, info };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** openRegularFile for a worker thread or a one-off read, where blocking on the read itself is fine. */
export function openRegularFileSync(path: string, maxBytes = FILE_READ_MAX_BYTES): { fd: number; info: Stats } {
  refuseUnreadable(statSync(path), maxBytes);
  const fd = openSync(path, READ_FLAGS);
  try {
    const info = fstatSync(fd);
    refuseUnreadable(info, maxBytes);
    return { fd, info };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** The whole content of a regular file (NotARegularFile, FileTooLarge otherwise): for source lines and small files. */
export function readRegularFileSync(path: string, maxBytes = FILE_READ_MAX_BYTES): Buffer {
  const { fd, info } = openRegularFileSync(path, maxBytes);
  try {
    return readOpenedSync(fd, info);
  } finally {
    closeSync(fd);
  }
}

/**
 * The first and last `each` bytes of a regular file of any size (the whole file in `head` when it
 * holds no more than 2 × `each`), and its size: the ends of a long output, without reading the rest.
 */
export function readRegularFileEndsSync(path: string, each: number): { head: Buffer; tail: Buffer; size: number } {
  const { fd, info } = openRegularFileSync(path, Number.MAX_SAFE_INTEGER);
  try {
    if (info.size <= 2 * each) return { head: readOpenedSync(fd, info), tail: Buffer.alloc(0), size: info.size };
    const head = Buffer.allocUnsafe(each);
    const tail = Buffer.allocUnsafe(each);
    const headBytes = readSync(fd, head, 0, each, 0);
    const tailBytes = readSync(fd, tail, 0, each, info.size - each);
    return { head: head.subarray(0, headBytes), tail: tail.subarray(0, tailBytes), size: info.size };
  } finally {
    closeSync(fd);
  }
}

/** An opened file's content up to the size it had when opened: bytes appended since are not read. */
export async function readOpened(handle: FileHandle, info: Stats): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(info.size);
  let filled = 0;
  while (filled < info.size) {
    const { bytesRead } = await handle.read(buffer, filled, info.size - filled, filled);
    if (bytesRead === 0) break; // truncated meanwhile
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/** readOpened for a descriptor, blocking the thread on the read. */
export function readOpenedSync(fd: number, info: Stats): Buffer {
  const buffer = Buffer.allocUnsafe(info.size);
  let filled = 0;
  while (filled < info.size) {
    const bytesRead = readSync(fd, buffer, filled, info.size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

function refuseUnreadable(info: Stats, maxBytes: number): void {
  const kind = specialKind(info);
  if (kind !== undefined) throw new NotARegularFile(kind);
  if (info.size > maxBytes) throw new FileTooLarge(info.size, maxBytes);
}

/** "3.0 GB", "64 MB", "512 KB", "5 bytes" */
function sizeInWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const GB = 1024 ** 3;
  const MB = 1024 ** 2;
  if (bytes >= GB) return `${(bytes / GB).toFixed(1)} GB`;
  if (bytes >= MB) return `${Math.round(bytes / MB)} MB`;
  return `${Math.ceil(bytes / 1024)} KB`;
}
