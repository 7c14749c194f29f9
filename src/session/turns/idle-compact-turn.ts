import type { ClaudeQuery } from "../../claude/query.js";
import type { ClaudeActivity } from "../background/claude-activity.js";
import { compactCommand, type IdleCompactionTurnSide } from "../lifecycle/idle-compaction.js";
import type { Watchdog } from "../lifecycle/watchdog.js";
import type { PromptCacheClock } from "../stream/prompt-cache.js";
import type { SystemMessages } from "../stream/system-messages.js";
import type { UsageTracker } from "../stream/usage.js";
import type { OwnTurns } from "./own-turns.js";

/** The session's parts the idle compaction reads and drives (read when called: built later). */
export interface IdleCompactParts {
  activity: ClaudeActivity;
  ownTurns: OwnTurns;
  systemMessages: SystemMessages;
  usage: UsageTracker;
  cache: PromptCacheClock;
  watchdog: Watchdog;
}

/** What the idle compaction (lifecycle/idle-compaction.ts) reads of its session and does in it. */
export function idleCompactionHost(parts: () => IdleCompactParts): IdleCompactionTurnSide {
  return {
    cache: () => parts().cache.state(),
    contextTokens: () => parts().usage.contextTokens(),
    compact: (query) => compactWhileIdle(parts(), query),
    interrupt: (query) => {
      const { systemMessages, watchdog } = parts();
      systemMessages.compactions.idleCancelled();
      watchdog.interrupted(query, query.interrupt());
    },
  };
}

/**
 * Runs `/compact` as a turn of the agent's own (a v2 client hears the session running, then
 * idle; a prompt waits for its end, and stops it first); resolves when it has ended.
 */
async function compactWhileIdle(parts: IdleCompactParts, query: ClaudeQuery): Promise<void> {
  const { activity, ownTurns, systemMessages } = parts;
  activity.ownTurnStarted();
  await ownTurns.started();
  systemMessages.compactions.idleStarts();
  try {
    query.send(compactCommand());
    await activity.untilOwnTurnEnds(new AbortController().signal);
  } finally {
    systemMessages.compactions.idleEnded();
  }
}
