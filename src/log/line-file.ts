// An append-only file of lines (the call record, the log file) that never blocks its writer: lines
// are queued and written in the background, each batch of whole lines in one write, so a process
// killed at any moment leaves every line before the last one complete. Rotates at a size.
import { closeSync, constants, fstatSync, openSync, readSync, renameSync, write } from "node:fs";

/** Lines queued beyond this while the disk is slow are dropped, and the drop is written down. */
const MAX_QUEUED_BYTES = 8 * 2 ** 20;

interface LineFileOptions {
  /** Past this size the file is renamed to `<path>.1` (replacing an older one) and a new one begun. */
  rotateBytes?: number;
  /** The line that stands for `count` dropped lines, in the file's own format. */
  droppedLine?: (count: number) => string;
  /** Told once when a write fails (the file is then given up). */
  onError?: (error: Error) => void;
}

export class LineFile {
  private fd: number | undefined;
  private size = 0;
  private queue: string[] = [];
  private queuedBytes = 0;
  private dropped = 0;
  private writing: Promise<void> | undefined;
  private failed = false;

  constructor(
    readonly path: string,
    private readonly options: LineFileOptions = {},
  ) {
    this.open();
  }

  /** Queues one line (without its newline); returns at once. */
  append(line: string): void {
    if (this.failed) return;
    if (this.queuedBytes > MAX_QUEUED_BYTES) {
      this.dropped++;
      return;
    }
    this.queue.push(line);
    this.queuedBytes += line.length + 1;
    this.writing ??= this.drain();
  }

  /** Resolves once every line queued so far is written (or the file was given up). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  async close(): Promise<void> {
    await this.flush();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.failed = true;
  }

  private open(): void {
    // Never through a symlink, and never blocking on a FIFO: a stateDir inside a checkout could hold
    // either, and the record's lines must not land in a file the checkout chose.
    const { O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW, O_NONBLOCK } = constants;
    const fd = openSync(this.path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK, 0o600);
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      closeSync(fd);
      throw new Error(`${this.path} is not a regular file`);
    }
    this.fd = fd;
    this.size = stat.size;
    // A process killed mid-write may have left half a line: end it, so the next line stands alone.
    if (this.size > 0 && lastByte(this.path, this.size) !== 0x0a) this.queue.push("");
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0 || this.dropped > 0) {
        if (this.dropped > 0 && this.options.droppedLine) this.queue.push(this.options.droppedLine(this.dropped));
        this.dropped = 0;
        const batch = this.nextBatch();
        await writeAll(this.fd!, batch);
        this.size += batch.length;
      }
    } catch (error) {
      this.failed = true;
      this.queue = [];
      this.options.onError?.(error as Error);
    } finally {
      this.writing = undefined;
    }
  }

  /** The queued lines that fit the current file (rotating first when not even one does), as one buffer. */
  private nextBatch(): Buffer {
    const limit = this.options.rotateBytes ?? Infinity;
    let room = limit - this.size;
    if (this.size > 0 && Buffer.byteLength(this.queue[0]!) + 1 > room) {
      this.rotate();
      room = limit;
    }
    let taken = 0;
    let bytes = 0;
    while (taken < this.queue.length) {
      const next = Buffer.byteLength(this.queue[taken]!) + 1;
      if (taken > 0 && bytes + next > room) break;
      bytes += next;
      taken++;
    }
    const lines = this.queue.splice(0, taken);
    this.queuedBytes = Math.max(0, this.queuedBytes - lines.reduce((sum, line) => sum + line.length + 1, 0));
    return Buffer.from(lines.map((line) => `${line}\n`).join(""));
  }

  private rotate(): void {
    closeSync(this.fd!);
    renameSync(this.path, `${this.path}.1`);
    this.open();
  }
}

function lastByte(path: string, size: number): number {
  const fd = openSync(path, "r");
  try {
    const one = Buffer.alloc(1);
    readSync(fd, one, 0, 1, size - 1);
    return one[0]!;
  } finally {
    closeSync(fd);
  }
}

/** Writes the whole buffer, however many writes the kernel takes for it. */
async function writeAll(fd: number, buffer: Buffer): Promise<void> {
  let offset = 0;
  while (offset < buffer.length) {
    offset += await new Promise<number>((resolve, reject) =>
      write(fd, buffer, offset, buffer.length - offset, null, (error, written) => (error ? reject(error) : resolve(written))),
    );
  }
}
