// Which parse worker holds each file's cached tree, in memory every worker shares: whichever worker
// lists a search splits its files between the workers itself, and the main thread, where every
// request waits its turn, never unpacks, splits or packs a file list. A file keeps its home for the
// run, so a search finds its tree again in the worker that parsed it.
import type { FileRef } from "./file-search.ts";

/**
 * Slots of the table (one byte each). A path's slot is a hash of it: two paths on one slot share a
 * home, which costs a little balance and never a wrong answer (any worker can search any file).
 */
const SLOTS = 1 << 18;

export class FileHomes {
  private readonly slots: Uint8Array;

  /** `memory` is `FileHomes.memory()` on the thread that made it, and the same buffer in every worker. */
  constructor(
    memory: SharedArrayBuffer,
    /** The workers files are split between (homes 0 … workers - 1). */
    private readonly workers: number,
  ) {
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
    const shares: FileRef[][] = Array.from({ length: this.workers }, () => []);
    const load = new Array<number>(this.workers).fill(0);
    const fresh: Array<{ file: FileRef; slot: number }> = [];
    for (const file of files) {
      const slot = slotOf(file.path);
      const home = Atomics.load(this.slots, slot) - 1;
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
      const home = before === 0 || before - 1 >= this.workers ? lightest : before - 1;
      shares[home]!.push(file);
      load[home]! += file.size;
    }
    return shares;
  }
}

/** FNV-1a over the path's UTF-16 code units, folded onto the table. */
function slotOf(path: string): number {
  let hash = 0x811c9dc5;
  for (let k = 0; k < path.length; k++) hash = Math.imul(hash ^ path.charCodeAt(k), 0x01000193);
  return (hash >>> 0) & (SLOTS - 1);
}
