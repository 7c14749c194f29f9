// An operation's signal follows every source it was linked to, and leaves nothing behind on
// a source that outlives it (a turn's signal, the terminal client's).
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { deferred } from "../../util/deferred.js";
import { withLinkedSignal } from "../../util/linked-signal.js";

describe("withLinkedSignal", () => {
  it("aborts when any source aborts, with that source's reason", async () => {
    const ask = new AbortController();
    const turn = new AbortController();
    const seen = deferred<unknown>();
    const done = withLinkedSignal([ask.signal, turn.signal], (signal) => {
      signal.addEventListener("abort", () => seen.resolve(signal.reason));
      return seen.promise;
    });
    turn.abort("turn cancelled");
    expect(await done).toBe("turn cancelled");
  });

  it("gives an aborted signal when a source was aborted before", async () => {
    const turn = new AbortController();
    turn.abort("gone");
    const reason = await withLinkedSignal([new AbortController().signal, turn.signal], (signal) =>
      Promise.resolve<unknown>(signal.aborted ? signal.reason : "not aborted"),
    );
    expect(reason).toBe("gone");
  });

  it("detaches from every source once the operation resolves or rejects", async () => {
    const ask = new AbortController();
    const turn = new AbortController();
    let linked: AbortSignal | undefined;
    await withLinkedSignal([ask.signal, turn.signal], (signal) => {
      linked = signal;
      expect(getEventListeners(turn.signal, "abort")).toHaveLength(1);
      return Promise.resolve();
    });
    await expect(
      withLinkedSignal([ask.signal, turn.signal], () => Promise.reject(new Error("failed"))),
    ).rejects.toThrow("failed");
    expect(getEventListeners(ask.signal, "abort")).toHaveLength(0);
    expect(getEventListeners(turn.signal, "abort")).toHaveLength(0);
    turn.abort();
    expect(linked?.aborted).toBe(false);
  });

  it("passes a single source through as it is", async () => {
    const only = new AbortController().signal;
    expect(await withLinkedSignal([only], (signal) => Promise.resolve(signal))).toBe(only);
  });
});
