// Idle compaction (issue 51 item 5): a long conversation left idle is compacted shortly
// before its one-hour prompt cache expires, and never when that would cost more than it saves.
// The clock is vitest's: the hour passes in a moment.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CompactionSettings } from "../../../claude/compaction-settings.js";
import type { ClaudeQuery } from "../../../claude/query.js";
import {
  IDLE_COMPACT_AFTER_VARIABLE,
  IdleCompaction,
  idleCompactionOff,
  idleCompactMinTokens,
} from "../../../session/lifecycle/idle-compaction.js";
import {
  FIVE_MINUTES_MS,
  ONE_HOUR_MS,
  PromptCacheClock,
  type PromptCacheState,
} from "../../../session/stream/prompt-cache.js";

const ON: CompactionSettings = { autoCompact: true, idleCompaction: true, env: {} };
const MINUTE = 60_000;

/** A session with a conversation of `tokens`, its cache last used now, idle unless told. */
function session(
  options: {
    tokens?: number;
    ttlMs?: number;
    settings?: CompactionSettings;
    env?: NodeJS.ProcessEnv;
    claudeEnv?: NodeJS.ProcessEnv;
  } = {},
) {
  const compactions: ClaudeQuery[] = [];
  const interrupts: ClaudeQuery[] = [];
  let settled = 0;
  let idle = true;
  let finishCompaction: () => void = () => {};
  const query = {
    compactionSettings: () => Promise.resolve(options.settings ?? ON),
  } as unknown as ClaudeQuery;
  let cache: PromptCacheState | undefined = {
    at: Date.now(),
    ttlMs: options.ttlMs ?? ONE_HOUR_MS,
  };
  const compaction = new IdleCompaction({
    env: options.env ?? {},
    claudeEnv: () => options.claudeEnv ?? {},
    query: () => query,
    cache: () => cache,
    contextTokens: () => options.tokens ?? 250_000,
    idle: () => idle,
    compact: (q) => {
      compactions.push(q);
      return new Promise<void>((resolve) => (finishCompaction = resolve));
    },
    interrupt: (q) => {
      interrupts.push(q);
      finishCompaction();
    },
    settled: () => settled++,
  });
  return {
    compaction,
    compactions,
    interrupts,
    settled: () => settled,
    busy: () => (idle = false),
    used: () => (cache = { at: Date.now(), ttlMs: cache?.ttlMs ?? ONE_HOUR_MS }),
    finish: () => finishCompaction(),
  };
}

/** Lets the awaited settings read settle under fake timers. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("IdleCompaction", () => {
  it("compacts at 0.9 of the cache's hour after its last use, not before", async () => {
    const s = session();
    await s.compaction.arm();
    expect(s.compaction.pending).toBe(true);
    await vi.advanceTimersByTimeAsync(54 * MINUTE - 1_000);
    expect(s.compactions).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(s.compactions).toHaveLength(1);
    expect(s.compaction.runs).toBe(true);
    s.finish();
    await settle();
    expect(s.compaction.pending).toBe(false);
    expect(s.settled()).toBe(1);
  });

  it("a cache of five minutes is never compacted for: the pause is too short to pay for one", async () => {
    const s = session({ ttlMs: FIVE_MINUTES_MS });
    await s.compaction.arm();
    expect(s.compaction.pending).toBe(false);
    await vi.advanceTimersByTimeAsync(2 * ONE_HOUR_MS);
    expect(s.compactions).toHaveLength(0);
  });

  it("a conversation under Claude Code's threshold (200k tokens by default) is left as it is", async () => {
    const s = session({ tokens: 199_999 });
    await s.compaction.arm();
    expect(s.compaction.pending).toBe(false);
    await vi.advanceTimersByTimeAsync(ONE_HOUR_MS);
    expect(s.compactions).toHaveLength(0);
  });

  it("a prompt before the time drops the compaction; a prompt during it stops it", async () => {
    const before = session();
    await before.compaction.arm();
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    before.busy();
    before.compaction.cancel();
    await vi.advanceTimersByTimeAsync(ONE_HOUR_MS);
    expect(before.compactions).toHaveLength(0);
    expect(before.compaction.pending).toBe(false);

    const during = session();
    await during.compaction.arm();
    await vi.advanceTimersByTimeAsync(54 * MINUTE);
    expect(during.compactions).toHaveLength(1);
    during.compaction.cancel();
    expect(during.interrupts).toHaveLength(1);
    await settle();
    expect(during.compaction.pending).toBe(false);
  });

  it("the session busy when the time comes (a turn of Claude's own) compacts nothing", async () => {
    const s = session();
    await s.compaction.arm();
    s.busy();
    await vi.advanceTimersByTimeAsync(ONE_HOUR_MS);
    expect(s.compactions).toHaveLength(0);
  });

  it("a machine that slept past the time finds a cold cache and compacts nothing", async () => {
    const s = session();
    await s.compaction.arm();
    // Asleep: the wall clock moves on, the timer does not fire meanwhile.
    vi.setSystemTime(Date.now() + 2 * ONE_HOUR_MS);
    await vi.advanceTimersByTimeAsync(54 * MINUTE);
    expect(s.compactions).toHaveLength(0);
    expect(s.settled()).toBe(1);
  });

  it("each idle arms again from the cache's last use: a new request moves the time", async () => {
    const s = session();
    await s.compaction.arm();
    await vi.advanceTimersByTimeAsync(40 * MINUTE);
    s.used();
    await s.compaction.arm();
    await vi.advanceTimersByTimeAsync(20 * MINUTE);
    expect(s.compactions).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(34 * MINUTE);
    expect(s.compactions).toHaveLength(1);
  });

  it(`${IDLE_COMPACT_AFTER_VARIABLE} compacts sooner, never later than the cache's deadline`, async () => {
    const sooner = session({ env: { [IDLE_COMPACT_AFTER_VARIABLE]: String(10 * MINUTE) } });
    await sooner.compaction.arm();
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(sooner.compactions).toHaveLength(1);

    const later = session({ env: { [IDLE_COMPACT_AFTER_VARIABLE]: String(2 * ONE_HOUR_MS) } });
    await later.compaction.arm();
    await vi.advanceTimersByTimeAsync(54 * MINUTE);
    expect(later.compactions).toHaveLength(1);
  });

  it("Claude Code's own switches turn it off: DISABLE_COMPACT, DISABLE_AUTO_COMPACT, autoCompactEnabled, idleCompaction", async () => {
    const offs = [
      session({ claudeEnv: { DISABLE_COMPACT: "1" } }),
      session({ settings: { ...ON, env: { DISABLE_AUTO_COMPACT: "true" } } }),
      session({ settings: { ...ON, autoCompact: false } }),
      session({ settings: { ...ON, idleCompaction: false } }),
    ];
    for (const s of offs) await s.compaction.arm();
    await vi.advanceTimersByTimeAsync(ONE_HOUR_MS);
    expect(offs.map((s) => s.compactions.length)).toEqual([0, 0, 0, 0]);
  });
});

describe("idleCompactionOff and idleCompactMinTokens", () => {
  it("the settings' env is read over the process's, as Claude Code reads it", () => {
    expect(
      idleCompactionOff({ DISABLE_COMPACT: "1" }, { ...ON, env: { DISABLE_COMPACT: "0" } }),
    ).toBe(undefined);
    expect(idleCompactionOff({}, ON)).toBe(undefined);
  });

  it("CLAUDE_CODE_IDLE_COMPACT_MIN_TOKENS sets the threshold, never under 100k", () => {
    expect(idleCompactMinTokens({}, ON)).toBe(200_000);
    expect(idleCompactMinTokens({ CLAUDE_CODE_IDLE_COMPACT_MIN_TOKENS: "150000" }, ON)).toBe(
      150_000,
    );
    expect(idleCompactMinTokens({ CLAUDE_CODE_IDLE_COMPACT_MIN_TOKENS: "5" }, ON)).toBe(100_000);
    expect(
      idleCompactMinTokens({}, { ...ON, env: { CLAUDE_CODE_IDLE_COMPACT_MIN_TOKENS: "300000" } }),
    ).toBe(300_000);
  });
});

describe("PromptCacheClock", () => {
  const start = (usage: Record<string, unknown>) =>
    ({ type: "message_start", message: { usage } }) as never;

  it("one-hour writes make an hour's cache; a read keeps it; nothing cached, no cache", () => {
    const clock = new PromptCacheClock(() => 1_000);
    clock.observe(
      start({
        cache_creation_input_tokens: 10,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 10 },
      }),
    );
    expect(clock.state()).toEqual({ at: 1_000, ttlMs: ONE_HOUR_MS });
    clock.observe(start({ cache_read_input_tokens: 10 }));
    expect(clock.state()?.ttlMs).toBe(ONE_HOUR_MS);
    clock.observe(
      start({
        cache_creation_input_tokens: 10,
        cache_creation: { ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 0 },
      }),
    );
    expect(clock.state()?.ttlMs).toBe(FIVE_MINUTES_MS);
    clock.observe(start({ input_tokens: 10 }));
    expect(clock.state()).toBeUndefined();
  });
});
