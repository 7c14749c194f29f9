// A permission ask waits for the stream to show what Claude Code wrote before it, but never
// keeps Claude Code waiting on a stream that does not catch up.
import { describe, expect, it } from "vitest";
import { StreamProgress } from "../../../session/stream/stream-progress.js";

const never = () => false;

describe("StreamProgress.caughtUp", () => {
  it("an idle stream (nothing queued) lets the ask go at once", async () => {
    const progress = new StreamProgress();
    const started = Date.now();
    await progress.caughtUp(never, new AbortController().signal, 5_000);
    expect(Date.now() - started).toBeLessThan(200);
  });

  it("a busy stream holds the ask until it has shown the tool use", async () => {
    const progress = new StreamProgress();
    let reached = false;
    progress.started();
    let done = false;
    const waiting = progress.caughtUp(() => reached, new AbortController().signal, 5_000);
    void waiting.then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toBe(false);
    // The next message shown is the tool use; the stream is still busy after it.
    reached = true;
    progress.finished();
    progress.started();
    await waiting;
  });

  it("a stream that stays busy holds the ask no longer than the bound", async () => {
    const progress = new StreamProgress();
    progress.started();
    const started = Date.now();
    await progress.caughtUp(never, new AbortController().signal, 100);
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("a cancelled ask stops waiting at once", async () => {
    const progress = new StreamProgress();
    progress.started();
    const controller = new AbortController();
    const waiting = progress.caughtUp(never, controller.signal, 5_000);
    const started = Date.now();
    setTimeout(() => controller.abort(), 10);
    await waiting;
    expect(Date.now() - started).toBeLessThan(500);
  });
});
