// A search's shares, claimed file by file through flags every worker shares: each worker takes its
// own share's files from the front and, once its share is done, unclaimed files of the others from
// the back. The lister splits a search's files by size before the text pre-filter, and the
// candidates (the files parsed) are not spread evenly: on a cold search one worker finished
// 200–700 ms before the other (mypy, prometheus, tokio, redis) while the other still parsed.
import { byPath, type ClaimedFile, type FileRef } from "./file-search.ts";

export class ShareClaims {
  /** One byte per file of every share (share k's from offsets[k]): 0 unclaimed, 1 claimed. */
  private readonly flags: Uint8Array;
  private readonly offsets: number[] = [];
  private readonly shares: FileRef[][];
  /** The next file of this worker's own share to try, from the front. */
  private ownAt = 0;
  /** Per share: the next file to try taking, from the back. */
  private readonly backAt: number[];
  /** Files of other shares this worker searched, in the order it took them. */
  readonly taken: FileRef[] = [];

  /**
   * `memory` is `ShareClaims.memory(…)` of the shares' lengths, the same buffer in every worker of
   * the search; `shares` are every worker's files, `own` the index of this worker's. Each share is
   * in path order, the order every worker sorts it in.
   */
  constructor(
    memory: SharedArrayBuffer,
    shares: readonly FileRef[][],
    private readonly own: number,
    /** Whether a file of another share may be taken: not when its home has it cached (FileHomes.isHeld). */
    private readonly mayTake: (path: string) => boolean,
  ) {
    this.flags = new Uint8Array(memory);
    this.shares = shares.map((share) => [...share].sort(byPath));
    let offset = 0;
    for (const share of this.shares) {
      this.offsets.push(offset);
      offset += share.length;
    }
    this.backAt = this.shares.map((share) => share.length - 1);
  }

  static memory(shareLengths: readonly number[]): SharedArrayBuffer {
    return new SharedArrayBuffer(Math.max(1, shareLengths.reduce((sum, n) => sum + n, 0)));
  }

  /** The next file to search, this worker's own first; undefined once none is left it may take. */
  claim(): ClaimedFile | undefined {
    const files = this.shares[this.own]!;
    while (this.ownAt < files.length) {
      const at = this.ownAt++;
      if (this.claimAt(this.own, at)) return { file: files[at]!, taken: false };
    }
    for (let k = 1; k < this.shares.length; k++) {
      const file = this.takeFrom((this.own + k) % this.shares.length);
      if (!file) continue;
      this.taken.push(file);
      return { file, taken: true };
    }
    return undefined;
  }

  /**
   * The last unclaimed file of another share whose owner does not hold it cached: a held file is
   * left to its owner (a lookup there, a read and a parse here), and the files before it may still
   * be taken.
   */
  private takeFrom(share: number): FileRef | undefined {
    const files = this.shares[share]!;
    while (this.backAt[share]! >= 0) {
      const at = this.backAt[share]!--;
      if (Atomics.load(this.flags, this.offsets[share]! + at) !== 0 || !this.mayTake(files[at]!.path)) continue;
      if (this.claimAt(share, at)) return files[at];
    }
    return undefined;
  }

  private claimAt(share: number, at: number): boolean {
    return Atomics.compareExchange(this.flags, this.offsets[share]! + at, 0, 1) === 0;
  }
}
