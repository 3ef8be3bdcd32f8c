// Which parse worker holds each file's cached tree, in memory every worker shares: whichever worker
// lists a search splits its files between the workers itself, and the main thread, where every
// request waits its turn, never unpacks, splits or packs a file list. A file keeps its home for the
// run, so a search finds its tree again in the worker that parsed it.
import type { FileRef } from "./file-search.ts";

/**
 * Slots of the table (one byte each). A path's slot is a hash of it: two paths on one slot share a
 * home, which costs a little balance and never a wrong answer (any worker can search any file).
 * The byte is the home plus one (0: none yet), and HELD once the home has cached the file.
 */
const SLOTS = 1 << 18;
/** The home has cached the file (text or tree): another worker should leave it to the home. */
const HELD = 0x80;
const HOME = 0x7f;
/**
 * Parse workers a run starts at most: the configured count's limit, and the default on a machine
 * with more cores. A slot's byte holds a home up to 127 beside the held bit.
 */
export const MOST_PARSE_WORKERS = 64;

export class FileHomes {
  private readonly slots: Uint8Array;

  /** `memory` is `FileHomes.memory()` on the thread that made it, and the same buffer in every worker. */
  constructor(
    memory: SharedArrayBuffer,
    /** The workers files are split between (homes 0 … workers - 1). */
    private readonly workers: number,
  ) {
    if (workers > MOST_PARSE_WORKERS) throw new RangeError(`file homes hold at most ${MOST_PARSE_WORKERS} workers, not ${workers}`);
    this.slots = new Uint8Array(memory);
  }

  static memory(): SharedArrayBuffer {
    return new SharedArrayBuffer(SLOTS);
  }

  /**
   * Splits files between the workers. A file with a home goes back to it; new files go, largest
   * first, to the worker with the fewest bytes so far, so a cold search is balanced. Two threads
   * splitting at once agree: a home is claimed with compare-and-swap, and the loser takes the winner's.
   */
  split(files: readonly FileRef[]): FileRef[][] {
    return this.splitCounting(files).shares;
  }

  /**
   * `split`, and how many of the files no home holds cached: the files a worker done with its own
   * share may take from another's (ShareClaims). None in a search over files searched before.
   */
  splitCounting(files: readonly FileRef[]): { shares: FileRef[][]; takeable: number } {
    const shares: FileRef[][] = Array.from({ length: this.workers }, () => []);
    const load = new Array<number>(this.workers).fill(0);
    const fresh: Array<{ file: FileRef; slot: number }> = [];
    let takeable = 0;
    for (const file of files) {
      const slot = slotOf(file.path);
      const value = Atomics.load(this.slots, slot);
      if (!(value & HELD)) takeable++;
      const home = homeIn(value);
      if (home < 0 || home >= this.workers) fresh.push({ file, slot });
      else {
        shares[home]!.push(file);
        load[home]! += file.size;
      }
    }
    fresh.sort((a, b) => b.file.size - a.file.size);
    for (const { file, slot } of fresh) {
      const lightest = load.indexOf(Math.min(...load));
      const before = Atomics.compareExchange(this.slots, slot, 0, lightest + 1);
      const home = before === 0 || homeIn(before) >= this.workers ? lightest : homeIn(before);
      shares[home]!.push(file);
      load[home]! += file.size;
    }
    return { shares, takeable };
  }

  /**
   * `path` is now cached by `worker`, which searched it for another worker's share (ShareClaims):
   * the next split sends it there. A split racing this may still send it to its old home, which
   * costs one parse there, never a match.
   */
  rehome(path: string, worker: number): void {
    Atomics.store(this.slots, slotOf(path), (worker + 1) | HELD);
  }

  /** `worker` cached `path` (its text or its tree): marked when `path`'s home is `worker`. */
  markHeld(path: string, worker: number): void {
    const slot = slotOf(path);
    for (;;) {
      const value = Atomics.load(this.slots, slot);
      if (homeIn(value) !== worker || value & HELD) return;
      if (Atomics.compareExchange(this.slots, slot, value, value | HELD) === value) return;
    }
  }

  /** The worker `path` goes to, or -1 before any split has given it one. */
  homeOf(path: string): number {
    return homeIn(Atomics.load(this.slots, slotOf(path)));
  }

  /**
   * Whether `path`'s home has cached it once (it may have been evicted since). A worker done with
   * its own share takes only files no home holds: one its home has cached costs the home a lookup
   * and would cost the taker a read and a parse.
   */
  isHeld(path: string): boolean {
    return (Atomics.load(this.slots, slotOf(path)) & HELD) !== 0;
  }
}

/** The home a slot's byte names (the home plus one, beside the held bit), or -1 for none yet. */
function homeIn(value: number): number {
  return (value & HOME) - 1;
}

/** FNV-1a over the path's UTF-16 code units, folded onto the table. */
function slotOf(path: string): number {
  let hash = 0x811c9dc5;
  for (let k = 0; k < path.length; k++) hash = Math.imul(hash ^ path.charCodeAt(k), 0x01000193);
  return (hash >>> 0) & (SLOTS - 1);
}
