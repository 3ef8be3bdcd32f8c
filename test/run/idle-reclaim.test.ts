// Memory is reclaimed once the run goes idle after growing, never while a call is in flight; after
// long idle, a deep reclaim also drops compiled code when RSS is still well above where it was.
import { describe, expect, test } from "bun:test";
import { IdleReclaim } from "../../src/run/idle-reclaim.ts";
import { ManualClock } from "../helpers/manual-clock.ts";

const MB = 2 ** 20;
const IDLE_MS = 30;
const DEEP_IDLE_MS = 150;
const SETTLE_MS = 20;

/** `gives`: how much RSS a full collection and a deep reclaim each give back when they run. */
function reclaimer(startRss = 100 * MB, gives = { full: 0, deep: 0 }, thresholds = { growthBytes: 32 * MB, deepGrowthBytes: 32 * MB }) {
  const state = { rss: startRss, reclaimed: 0, deep: 0 };
  const clock = new ManualClock();
  const reclaim = new IdleReclaim({
    reclaim: (deep) => {
      if (deep) state.deep++;
      else state.reclaimed++;
      state.rss -= deep ? gives.deep : gives.full;
    },
    rss: () => state.rss,
    idleMs: IDLE_MS,
    ...thresholds,
    deepIdleMs: DEEP_IDLE_MS,
    settleMs: SETTLE_MS,
    timers: clock,
  });
  return { state, reclaim, clock };
}

describe("IdleReclaim", () => {
  test("reclaims once after a burst that grew RSS, when the last call has ended and the idle time passed", () => {
    const { state, reclaim, clock } = reclaimer();
    reclaim.callStarted();
    reclaim.callStarted();
    state.rss += 200 * MB;
    reclaim.callEnded();
    clock.advance(IDLE_MS * 3);
    expect(state.reclaimed).toBe(0); // one call is still running
    reclaim.callEnded();
    clock.advance(IDLE_MS * 3);
    expect(state.reclaimed).toBe(1);
    reclaim.close();
  });

  test("a call that starts within the idle time postpones the reclaim", () => {
    const { state, reclaim, clock } = reclaimer();
    state.rss += 200 * MB;
    reclaim.callStarted();
    reclaim.callEnded();
    clock.advance(IDLE_MS / 3);
    reclaim.callStarted();
    clock.advance(IDLE_MS * 2);
    expect(state.reclaimed).toBe(0);
    reclaim.callEnded();
    clock.advance(IDLE_MS * 3);
    expect(state.reclaimed).toBe(1);
    reclaim.close();
  });

  test("idle without growth reclaims nothing: a pause costs tens of ms, so it is only taken when worth it", () => {
    const { state, reclaim, clock } = reclaimer();
    state.rss += 10 * MB;
    reclaim.callStarted();
    reclaim.callEnded();
    clock.advance(IDLE_MS * 3);
    expect(state.reclaimed).toBe(0);
    reclaim.close();
  });

  test("after long idle a deep reclaim runs when RSS stayed well above the last deep level, once", () => {
    // A full collection gives back half of a 200 MB burst, the deep reclaim most of the rest.
    const { state, reclaim, clock } = reclaimer(100 * MB, { full: 100 * MB, deep: 90 * MB });
    state.rss += 200 * MB;
    reclaim.callStarted();
    reclaim.callEnded();
    clock.advance(IDLE_MS * 2);
    expect(state).toMatchObject({ reclaimed: 1, deep: 0 });
    clock.advance(DEEP_IDLE_MS * 1.5);
    expect(state).toMatchObject({ reclaimed: 1, deep: 1, rss: 110 * MB });
    // A burst that grows RSS less than the threshold over the level the deep reclaim left: neither runs.
    state.rss += 20 * MB;
    reclaim.callStarted();
    reclaim.callEnded();
    clock.advance(DEEP_IDLE_MS * 1.5);
    expect(state).toMatchObject({ reclaimed: 1, deep: 1 });
    reclaim.close();
  });

  test("messages that are not calls (a burst of tools/list) start the idle wait too, and each one starts it over", () => {
    const { state, reclaim, clock } = reclaimer();
    state.rss += 200 * MB;
    for (let i = 0; i < 5; i++) {
      reclaim.requestHeard();
      clock.advance(IDLE_MS / 2);
    }
    expect(state.reclaimed).toBe(0); // never idle for IDLE_MS yet
    clock.advance(IDLE_MS);
    expect(state.reclaimed).toBe(1);
    reclaim.close();
  });

  test("a message heard while a call is in flight does not start the wait: the call's end does", () => {
    const { state, reclaim, clock } = reclaimer();
    state.rss += 200 * MB;
    reclaim.callStarted();
    reclaim.requestHeard();
    clock.advance(DEEP_IDLE_MS * 2);
    expect(state).toMatchObject({ reclaimed: 0, deep: 0 });
    reclaim.callEnded();
    clock.advance(IDLE_MS * 2);
    expect(state.reclaimed).toBe(1);
    reclaim.close();
  });

  test("the deep reclaim has a threshold of its own, lower than the full collection's", () => {
    const { state, reclaim, clock } = reclaimer(100 * MB, { full: 0, deep: 0 }, { growthBytes: 32 * MB, deepGrowthBytes: 4 * MB });
    state.rss += 6 * MB; // below the full collection's 32 MB, above the deep reclaim's 4 MB
    reclaim.requestHeard();
    clock.advance(DEEP_IDLE_MS * 1.5);
    expect(state).toMatchObject({ reclaimed: 0, deep: 1 });
    reclaim.close();
  });

  test("a call during the long idle postpones the deep reclaim until the run has been idle that long again", () => {
    const { state, reclaim, clock } = reclaimer();
    state.rss += 200 * MB; // nothing gives any back here
    reclaim.callStarted();
    reclaim.callEnded();
    clock.advance(DEEP_IDLE_MS / 2);
    reclaim.callStarted(); // within the long idle
    clock.advance(DEEP_IDLE_MS * 1.5);
    expect(state).toMatchObject({ reclaimed: 1, deep: 0 });
    reclaim.callEnded();
    clock.advance(DEEP_IDLE_MS / 2);
    expect(state.deep).toBe(0);
    clock.advance(DEEP_IDLE_MS);
    expect(state.deep).toBe(1);
    reclaim.close();
  });
});
