import type { CompactionSettings } from "../../claude/compaction-settings.js";
import { randomUUID } from "node:crypto";
import type { ClaudeQuery } from "../../claude/query.js";
import type { SDKUserMessage } from "../../claude/types.js";
import { log } from "../../logger.js";
import { isTruthy } from "../../providers/provider-config.js";
import { ONE_HOUR_MS, type PromptCacheState } from "../stream/prompt-cache.js";

/** Compact at this share of the cache's hour after its last use (Claude Code's own share). */
export const IDLE_COMPACT_AT = 0.9;
/** A timer this late means the machine slept: the cache has likely expired, so no compaction. */
export const IDLE_COMPACT_LATE_MS = 60_000;
/** Claude Code's threshold for idle compaction, and the least it takes (`CLAUDE_CODE_IDLE_COMPACT_MIN_TOKENS`). */
export const IDLE_COMPACT_MIN_TOKENS = { default: 200_000, least: 100_000 } as const;
/** The agent's switch for compacting sooner than the cache's deadline. */
export const IDLE_COMPACT_AFTER_VARIABLE = "CLAUDE_AGENT_ACP_IDLE_COMPACT_AFTER_MS";

/** What the idle compaction needs of its session. */
export interface IdleCompactionHost {
  /** The agent's environment (its own switch is read there). */
  readonly env: NodeJS.ProcessEnv;
  /** The environment the session's Claude Code runs with (before its settings' `env`). */
  claudeEnv(): NodeJS.ProcessEnv;
  /** The live Claude process, if any. */
  query(): ClaudeQuery | undefined;
  /** The main thread's prompt cache, as last reported. */
  cache(): PromptCacheState | undefined;
  /** The conversation's size in tokens now. */
  contextTokens(): number;
  /** Nothing runs: no prompt, no turn of Claude's own, no background work. */
  idle(): boolean;
  /** Runs `/compact` on `query` as a turn of the agent's own; resolves when it has ended. */
  compact(query: ClaudeQuery): Promise<void>;
  /** The running compaction is to stop (a prompt came). */
  interrupt(query: ClaudeQuery): void;
  /** Nothing is due any more: the idle close may take the process. */
  settled(): void;
}

/** What the turns' side of the session gives it: what it reads there, and how it runs there. */
export type IdleCompactionTurnSide = Pick<
  IdleCompactionHost,
  "cache" | "contextTokens" | "compact" | "interrupt"
>;

/**
 * Why idle compaction is off for the session, by Claude Code's own switches, or undefined
 * when it is on: `DISABLE_COMPACT` or `DISABLE_AUTO_COMPACT` (its environment, its settings'
 * `env` over that), `autoCompactEnabled: false`, `idleCompaction: false`.
 */
export function idleCompactionOff(
  env: NodeJS.ProcessEnv,
  settings: CompactionSettings,
): string | undefined {
  const merged = { ...env, ...settings.env };
  if (isTruthy(merged.DISABLE_COMPACT)) return "DISABLE_COMPACT is set";
  if (isTruthy(merged.DISABLE_AUTO_COMPACT)) return "DISABLE_AUTO_COMPACT is set";
  if (!settings.autoCompact) return "autoCompactEnabled is false";
  if (!settings.idleCompaction) return "idleCompaction is false";
  return undefined;
}

/** Claude Code's threshold, read as it reads it: at least the least, else the default. */
export function idleCompactMinTokens(env: NodeJS.ProcessEnv, settings: CompactionSettings): number {
  const raw = { ...env, ...settings.env }.CLAUDE_CODE_IDLE_COMPACT_MIN_TOKENS;
  const value = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(value)
    ? Math.max(IDLE_COMPACT_MIN_TOKENS.least, value)
    : IDLE_COMPACT_MIN_TOKENS.default;
}

/** The agent's own `CLAUDE_AGENT_ACP_IDLE_COMPACT_AFTER_MS`, when it is a sound number. */
function compactAfterMs(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env[IDLE_COMPACT_AFTER_VARIABLE];
  const value = raw === undefined ? NaN : Number(raw);
  if (raw !== undefined && !(Number.isFinite(value) && value >= 0)) {
    log.warn(`Ignoring ${IDLE_COMPACT_AFTER_VARIABLE}: expected milliseconds, got '${raw}'.`);
  }
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * Compacts a long conversation left idle shortly before its one-hour prompt cache expires,
 * so that the next prompt re-reads a summary instead of the whole conversation at full price.
 * It is due at 0.9 of the hour after the cache's last use (or sooner, by the agent's
 * switch), only while the conversation is over Claude Code's threshold and Claude Code's own
 * switches leave compaction on. A prompt drops it, or stops it while it runs; a timer that
 * fires a minute late (the machine slept) finds a cold cache and does nothing.
 */
export class IdleCompaction {
  private timer: NodeJS.Timeout | undefined;
  /** Bumped by every arm and cancel: a check that awaited meanwhile is stale. */
  private generation = 0;
  private arming = false;
  private running: ClaudeQuery | undefined;
  private readonly afterMs: number | undefined;

  constructor(private readonly host: IdleCompactionHost) {
    this.afterMs = compactAfterMs(host.env);
  }

  /** A compaction is due, being decided, or running: the process is kept for it. */
  get pending(): boolean {
    return this.arming || this.timer !== undefined || this.running !== undefined;
  }

  /** A compaction the agent started runs now. */
  get runs(): boolean {
    return this.running !== undefined;
  }

  /** The session went idle: a compaction is due if the conversation and the cache call for one. */
  async arm(): Promise<void> {
    const generation = this.restart();
    const { host } = this;
    const cache = host.cache();
    const query = host.query();
    if (!cache || cache.ttlMs !== ONE_HOUR_MS || !query || this.running) return;
    // Under the least threshold there is nothing to ask Claude Code's settings about.
    if (host.contextTokens() < IDLE_COMPACT_MIN_TOKENS.least) return;
    this.arming = true;
    try {
      const settings = await this.onFor(query);
      if (generation !== this.generation || !settings) return;
      const minTokens = idleCompactMinTokens(host.claudeEnv(), settings);
      if (host.contextTokens() < minTokens) return;
      const deadline = cache.at + Math.min(cache.ttlMs * IDLE_COMPACT_AT, this.afterMs ?? Infinity);
      this.timer = setTimeout(() => void this.fire(generation, deadline), deadline - Date.now());
      this.timer.unref();
    } finally {
      if (generation === this.generation) this.arming = false;
    }
  }

  /** A prompt or a steer came: a due compaction is dropped, a running one stopped. */
  cancel(): void {
    this.restart();
    if (this.running) this.host.interrupt(this.running);
  }

  private restart(): number {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.arming = false;
    return ++this.generation;
  }

  /** Claude Code's settings, when they leave idle compaction on; undefined (logged) when not. */
  private async onFor(query: ClaudeQuery): Promise<CompactionSettings | undefined> {
    const settings = await query.compactionSettings().catch(() => undefined);
    if (!settings) return undefined;
    const off = idleCompactionOff(this.host.claudeEnv(), settings);
    if (off) log.debug(`idle compaction is off: ${off}`);
    return off ? undefined : settings;
  }

  private async fire(generation: number, deadline: number): Promise<void> {
    this.timer = undefined;
    const { host } = this;
    const late = Date.now() - deadline;
    const query = host.query();
    if (late > IDLE_COMPACT_LATE_MS) {
      log.info(
        `Not compacting the idle conversation: its time passed ${Math.round(late / 1000)} s ago (the machine slept?), so its prompt cache has likely expired.`,
      );
    } else if (query && host.idle() && (await this.onFor(query))) {
      if (generation !== this.generation || !host.idle() || host.query() !== query) return;
      log.info("Compacting the idle conversation before its prompt cache expires.");
      this.running = query;
      try {
        await host.compact(query);
      } catch (error) {
        log.warn("The idle compaction failed", error);
      } finally {
        this.running = undefined;
      }
    }
    if (generation === this.generation) host.settled();
  }
}

/** Claude Code's `/compact`, sent by the agent: no person typed it, so it has no origin. */
export function compactCommand(): SDKUserMessage {
  return {
    type: "user",
    message: { role: "user", content: "/compact" },
    parent_tool_use_id: null,
    uuid: randomUUID(),
  };
}
