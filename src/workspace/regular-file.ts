// Opening a workspace file only when it is a regular file. A FIFO named to a tool blocks the thread
// that opens it until a writer comes (it held both of Bun's pool threads, and every later call waited
// behind them); a socket or a device is no source file either. So the type is checked before the
// open, the open never blocks (O_NONBLOCK), and what was opened is checked again.
import { closeSync, constants, fstatSync, openSync, readFileSync, statSync, type Stats } from "node:fs";
import { open, stat, type FileHandle } from "node:fs/promises";

/** A path that leads to something other than a regular file where a file's content is wanted. */
export class NotARegularFile extends Error {
  override name = "NotARegularFile";
  constructor(readonly kind: string) {
    super(`it is ${kind}, not a regular file, so it was not opened`);
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

/** Opens `path` (symlinks followed) for reading, refusing (NotARegularFile) anything but a regular file. */
export async function openRegularFile(path: string): Promise<{ handle: FileHandle; info: Stats }> {
  refuseSpecial(await stat(path));
  const handle = await open(path, READ_FLAGS);
  try {
    const info = await handle.stat();
    refuseSpecial(info); // swapped for something else between the check and the open
    return { handle, info };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** openRegularFile for a worker thread or a one-off read, where blocking on the read itself is fine. */
export function openRegularFileSync(path: string): { fd: number; info: Stats } {
  refuseSpecial(statSync(path));
  const fd = openSync(path, READ_FLAGS);
  try {
    const info = fstatSync(fd);
    refuseSpecial(info);
    return { fd, info };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** The whole content of a regular file (NotARegularFile for anything else): for source lines and small files. */
export function readRegularFileSync(path: string): Buffer {
  const { fd } = openRegularFileSync(path);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

function refuseSpecial(info: Stats): void {
  const kind = specialKind(info);
  if (kind !== undefined) throw new NotARegularFile(kind);
}
