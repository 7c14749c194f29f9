import type { SDKPartialAssistantMessage } from "../../claude/types.js";

type StreamEvent = SDKPartialAssistantMessage["event"];

/** The main thread's prompt cache as the API last reported it. */
export interface PromptCacheState {
  /** When the last request that used it was answered (epoch ms): its lifetime starts again. */
  at: number;
  /** How long its entries live unused: 5 minutes or one hour. */
  ttlMs: number;
}

export const FIVE_MINUTES_MS = 5 * 60_000;
export const ONE_HOUR_MS = 60 * 60_000;

/** The cache writes of one response, by lifetime (the API's `usage.cache_creation`). */
interface CacheUsage {
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_creation?: {
    ephemeral_5m_input_tokens?: number | null;
    ephemeral_1h_input_tokens?: number | null;
  } | null;
}

const positive = (value: number | null | undefined): boolean =>
  typeof value === "number" && value > 0;

/**
 * Follows the main thread's prompt cache from each response's usage, as Claude Code itself
 * does: a response that wrote one-hour entries makes the cache one hour long, one that wrote
 * only five-minute entries five minutes; one that only read it keeps what it was (a read
 * renews the entries it read); one that neither read nor wrote has no cache.
 */
export class PromptCacheClock {
  private last: PromptCacheState | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** Main-thread stream events: each request's `message_start` reports its cache use. */
  observe(event: StreamEvent): void {
    if (event.type !== "message_start") return;
    const usage = event.message.usage as CacheUsage;
    const written = usage.cache_creation;
    const ttlMs = positive(written?.ephemeral_1h_input_tokens)
      ? ONE_HOUR_MS
      : positive(written?.ephemeral_5m_input_tokens) ||
          (positive(usage.cache_creation_input_tokens) && !written)
        ? FIVE_MINUTES_MS
        : positive(usage.cache_read_input_tokens) || positive(usage.cache_creation_input_tokens)
          ? this.last?.ttlMs
          : undefined;
    this.last = ttlMs === undefined ? undefined : { at: this.now(), ttlMs };
  }

  /** The cache the next request would read, if the last one left one. */
  state(): PromptCacheState | undefined {
    return this.last;
  }

  /** Another Claude Code process: what this one cached is not known to be its. */
  reset(): void {
    this.last = undefined;
  }
}
