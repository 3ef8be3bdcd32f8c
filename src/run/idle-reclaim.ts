// Gives memory back once a burst of calls is over. Under load the collector runs lazily and the
// allocator keeps the pages it freed: after 20 s of 50 sessions searching, the sidecar stayed at
// 290 MB with nothing left to do, against 120 MB before (148 MB after this reclaim). Two stages:
// - once no call has been in flight for IDLE_MS (any message of a session, a tools/list too, starts
//   the wait again), and RSS has grown by RECLAIM_GROWTH_BYTES since it last settled, a full
//   collection runs on the main thread and in every parse worker (each has a heap of its own);
// - once nothing has been in flight for DEEP_IDLE_MS, and RSS is still DEEP_RECLAIM_GROWTH_BYTES above
//   where the last deep reclaim left it, the main thread's collection also drops compiled code and the
//   allocator's cached pages. The next call then runs slower while the code is compiled again (by
//   5–18 ms measured, a few ms for the ones after), which a model that has been thinking that long
//   does not notice. After a saturated minute of the load bench, RSS settled 12–18 % above the
//   resting sidecar instead of 14–25 %.

/** How long the run must have no call in flight before memory is reclaimed. */
export const IDLE_MS = 1_000;
/** Growth over the settled RSS that makes a reclaim worth its pause (a full collection takes tens of ms). */
const RECLAIM_GROWTH_BYTES = 8 * 2 ** 20;
/**
 * Growth over the last deep level that makes the deep reclaim worth it. Lower: it runs only after
 * long idle, when its cost goes unseen, and a burst of 1,050 tools/list (no call at all) left the
 * binary 6 MB above its resting 58 MB, which a deep reclaim gave back down to 61 (bench/startup.ts).
 */
const DEEP_RECLAIM_GROWTH_BYTES = 2 * 2 ** 20;
/** How long the run must have no call in flight before the deep reclaim. */
export const DEEP_IDLE_MS = 10_000;
/** After a reclaim, how long until RSS is read as the new settled level (workers collect on their own time). */
const SETTLE_MS = 2_000;

/** The timers the reclaim waits with; tests pass a clock they advance by hand. */
export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Real timers, unref'd: a pending reclaim never keeps the process alive. */
const REAL_TIMERS: Timers = {
  setTimeout: (run, ms) => setTimeout(run, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

interface IdleReclaimOptions {
  /** Runs the collections; `deep` (long idle) may also drop compiled code and the allocator's cached pages. */
  reclaim(deep: boolean): void;
  /** Current resident set size in bytes. */
  rss?: () => number;
  idleMs?: number;
  growthBytes?: number;
  deepGrowthBytes?: number;
  deepIdleMs?: number;
  settleMs?: number;
  timers?: Timers;
}

export class IdleReclaim {
  private inFlight = 0;
  private idleTimer: unknown;
  private deepTimer: unknown;
  private settleTimer: unknown;
  /** RSS once the last reclaim of either kind settled (at start: the start). */
  private settled: number;
  /** RSS once the last deep reclaim settled. */
  private deeplySettled: number;
  private readonly rss: () => number;
  private readonly timers: Timers;

  constructor(private readonly options: IdleReclaimOptions) {
    this.rss = options.rss ?? (() => process.memoryUsage.rss());
    this.timers = options.timers ?? REAL_TIMERS;
    this.settled = this.deeplySettled = this.rss();
  }

  callStarted(): void {
    this.inFlight++;
    this.clearIdleTimers();
  }

  callEnded(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.armIdleTimers();
  }

  /** A message other than a call: idle starts over from now, unless a call is still in flight. */
  requestHeard(): void {
    this.armIdleTimers();
  }

  private armIdleTimers(): void {
    if (this.inFlight > 0) return;
    this.clearIdleTimers();
    this.idleTimer = this.timers.setTimeout(() => this.idle(false), this.options.idleMs ?? IDLE_MS);
    this.deepTimer = this.timers.setTimeout(() => this.idle(true), this.options.deepIdleMs ?? DEEP_IDLE_MS);
  }

  close(): void {
    this.clearIdleTimers();
    this.timers.clearTimeout(this.settleTimer);
  }

  private idle(deep: boolean): void {
    const grown = this.rss() - (deep ? this.deeplySettled : this.settled);
    const worthIt = deep ? (this.options.deepGrowthBytes ?? DEEP_RECLAIM_GROWTH_BYTES) : (this.options.growthBytes ?? RECLAIM_GROWTH_BYTES);
    if (this.inFlight > 0 || grown < worthIt) return;
    this.options.reclaim(deep);
    this.timers.clearTimeout(this.settleTimer);
    this.settleTimer = this.timers.setTimeout(() => {
      this.settled = this.rss();
      if (deep) this.deeplySettled = this.settled;
    }, this.options.settleMs ?? SETTLE_MS);
  }

  private clearIdleTimers(): void {
    this.timers.clearTimeout(this.idleTimer);
    this.timers.clearTimeout(this.deepTimer);
    this.idleTimer = this.deepTimer = undefined;
  }
}
