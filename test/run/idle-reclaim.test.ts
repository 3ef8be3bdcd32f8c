// Memory is reclaimed once the run goes idle after growing, never while a call is in flight.
import { describe, expect, test } from "bun:test";
import { IdleReclaim } from "../../src/run/idle-reclaim.ts";

const MB = 2 ** 20;
const IDLE_MS = 30;

function reclaimer(startRss = 100 * MB) {
  const state = { rss: startRss, reclaimed: 0 };
  const reclaim = new IdleReclaim({ reclaim: () => state.reclaimed++, rss: () => state.rss, idleMs: IDLE_MS, growthBytes: 32 * MB });
  return { state, reclaim };
}

describe("IdleReclaim", () => {
  test("reclaims once after a burst that grew RSS, when the last call has ended and the idle time passed", async () => {
    const { state, reclaim } = reclaimer();
    reclaim.callStarted();
    reclaim.callStarted();
    state.rss += 200 * MB;
    reclaim.callEnded();
    await Bun.sleep(IDLE_MS * 3);
    expect(state.reclaimed).toBe(0); // one call is still running
    reclaim.callEnded();
    await Bun.sleep(IDLE_MS * 3);
    expect(state.reclaimed).toBe(1);
    reclaim.close();
  });

  test("a call that starts within the idle time postpones the reclaim", async () => {
    const { state, reclaim } = reclaimer();
    state.rss += 200 * MB;
    reclaim.callStarted();
    reclaim.callEnded();
    await Bun.sleep(IDLE_MS / 3);
    reclaim.callStarted();
    await Bun.sleep(IDLE_MS * 2);
    expect(state.reclaimed).toBe(0);
    reclaim.callEnded();
    await Bun.sleep(IDLE_MS * 3);
    expect(state.reclaimed).toBe(1);
    reclaim.close();
  });

  test("idle without growth reclaims nothing: a pause costs tens of ms, so it is only taken when worth it", async () => {
    const { state, reclaim } = reclaimer();
    state.rss += 10 * MB;
    reclaim.callStarted();
    reclaim.callEnded();
    await Bun.sleep(IDLE_MS * 3);
    expect(state.reclaimed).toBe(0);
    reclaim.close();
  });
});
