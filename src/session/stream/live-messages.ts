// A live message of Claude Code that is neither a result nor a system message, as session
// updates: rate-limit reports become notices and usage, an API error stays with its turn, a
// plan and `/usage` are noted, the goal (`/goal`) is told, and every message goes through the
// stream translator.
import type { UsageUpdate } from "@agentclientprotocol/sdk";
import type { GoalState } from "../../acp/air/goal.js";
import type { SessionClient } from "../../acp/session-client.js";
import {
  type ClaudeGoal,
  isActiveGoal,
  type SDKMessage,
  type SDKResultMessage,
  SYNTHETIC_MODEL,
  type SystemMessage,
} from "../../claude/types.js";
import type { Subagents } from "../background/subagents.js";
import type { PlanHandoffs } from "../turns/plan-handoffs.js";
import type { Turn } from "../turns/turn.js";
import type { PromptSuggestions } from "./prompt-suggestions.js";
import type { RateLimitReporter } from "./rate-limits.js";
import type { StreamTranslator } from "./stream.js";
import type { UsageCommand } from "./usage-command.js";
import type { UsageTracker } from "./usage.js";
import type { PromptCacheClock } from "./prompt-cache.js";

export type LiveMessage = Exclude<SDKMessage, SystemMessage | SDKResultMessage>;

/** What showing a live message needs of its session. */
export interface LiveMessageHost {
  client: SessionClient;
  stream: StreamTranslator;
  subagents: Subagents;
  usage: UsageTracker;
  cache: PromptCacheClock;
  usageCommand: UsageCommand;
  rateLimits: RateLimitReporter;
  plans: PlanHandoffs;
  suggestions: PromptSuggestions;
  /** The user's turn that runs, if one does. */
  userTurn(): Turn | undefined;
  /** The agent's idle compaction (session/lifecycle/idle-compaction.ts). */
  idleCompaction: { readonly runs: boolean };
  send(update: () => Promise<void>): Promise<void>;
  sendUsage(usage: UsageUpdate | undefined): Promise<void>;
}

export async function showLiveMessage(host: LiveMessageHost, message: LiveMessage): Promise<void> {
  const { usage } = host;
  const reported: { type: string } = message;
  if (isActiveGoal(reported))
    return host.send(() => host.client.updateGoal(goalOf(reported.value)));
  if (message.type === "rate_limit_event") {
    const notice = host.rateLimits.report(message.rate_limit_info);
    if (notice) await host.send(() => host.client.sendNotice(notice));
    return host.sendUsage(usage.update());
  }
  if (message.type === "prompt_suggestion") return host.suggestions.suggested(message.suggestion);
  const turn = host.userTurn();
  if (message.type === "assistant" && !message.parent_tool_use_id) {
    if (message.error && turn) turn.apiError = message.error;
    // Claude Code's synthetic error message: the error reaches the client as the
    // prompt's JSON-RPC error, not as words from Claude.
    // In a turn Claude Code started itself, its result's notice carries the error.
    if (message.error && message.message.model === SYNTHETIC_MODEL) return;
    // "Compaction canceled.": the idle compaction's own report says that a prompt stopped it.
    if (host.idleCompaction.runs && message.message.model === SYNTHETIC_MODEL) return;
    host.plans.observe(message.message.content);
    host.usageCommand.observe(message);
  }
  await host.send(() => host.stream.handle(message));
  if (message.type === "user") await host.send(() => host.subagents.toolResults(message));
  if (message.type === "stream_event" && !message.parent_tool_use_id) {
    usage.observe(message.event);
    host.cache.observe(message.event);
    // Each API call's end moves the context size: the client hears it then, not only at
    // the end of the turn (the window is known from the first result on).
    if (message.event.type === "message_delta") await host.sendUsage(usage.update());
  }
}

/** Claude Code's goal in plain values (null: it has none). */
function goalOf(goal: ClaudeGoal | null): GoalState | null {
  if (!goal) return null;
  const { condition, iterations, set_at: setAt, last_reason: lastReason } = goal;
  return { condition, iterations, setAt, ...(lastReason !== undefined ? { lastReason } : {}) };
}
