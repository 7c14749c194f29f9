// The end of a user's turn (Claude Code's result for it): a plan handoff or a steer may go on
// with it; otherwise the client hears what the turn used and any limit or account error, the
// turn settles with its outcome, and the model option follows what Claude Code ran.
import type { UsageUpdate } from "@agentclientprotocol/sdk";
import type { SessionClient } from "../../acp/session-client.js";
import type { SDKResultMessage } from "../../claude/types.js";
import type { ClientSetup } from "../configuration/client-setup.js";
import { accountErrorNotice } from "../stream/account-errors.js";
import { limitNotice } from "../stream/notices.js";
import type { RateLimitReporter } from "../stream/rate-limits.js";
import type { UsageCommand } from "../stream/usage-command.js";
import { addTurnUsage, type UsageTracker } from "../stream/usage.js";
import type { PromptSuggestions } from "../stream/prompt-suggestions.js";
import { outcomeOfResult } from "./outcome.js";
import type { PlanHandoffs } from "./plan-handoffs.js";
import { isSlashCommand } from "./prompt.js";
import { awaitsSteer } from "./steering.js";
import type { Turn } from "./turn.js";
import type { TurnQueue } from "./turn-queue.js";

/** What ending a turn needs of its session. */
export interface TurnEndHost {
  client: SessionClient;
  setup: ClientSetup;
  usage: UsageTracker;
  usageCommand: UsageCommand;
  rateLimits: RateLimitReporter;
  plans: PlanHandoffs;
  turns: TurnQueue;
  suggestions: PromptSuggestions;
  /** The model option follows what Claude Code runs (`/model`, a fallback). */
  followModel(): Promise<void>;
  /** Whether the turn failed: a listing shows it. */
  failed(failed: boolean): void;
  /** A turn ended: the conversation's title may have changed. */
  afterTurn(): void;
  send(update: () => Promise<void>): Promise<void>;
  sendUsage(usage: UsageUpdate | undefined): Promise<void>;
}

export async function endTurn(
  host: TurnEndHost,
  turn: Turn,
  result: SDKResultMessage,
): Promise<void> {
  const { client, usage, rateLimits } = host;
  usage.observeResult(result, undefined);
  turn.usage = addTurnUsage(turn.usage, result);
  const steered = awaitsSteer(turn, result);
  if ((await host.plans.continueTurn(turn)) || steered) return;
  turn.closing = true; // a steer from now on starts a turn of its own (steering.ts)
  host.suggestions.turnAnswered(); // Claude Code may now predict the next prompt
  // Asking Claude Code costs a round trip: before the answer only after a slash command
  // (`/model` must show when its turn ends), after it otherwise (a fallback).
  const command = isSlashCommand(turn.prompt);
  if (command) await host.followModel();
  const used = host.usageCommand.addendum(result, rateLimits.windows);
  if (used) await host.send(() => client.sendAgentText(used.text, used.messageId));
  if (!turn.isSettled) await host.sendUsage(usage.update());
  const limit = limitNotice(result, host.setup.options);
  if (limit) await host.send(() => client.sendNotice(limit));
  const outcome = outcomeOfResult(result, turn, rateLimits.state);
  host.failed("error" in outcome);
  const shown = "error" in outcome ? accountErrorNotice(outcome.error) : undefined;
  if (shown) await host.send(() => client.sendNotice(shown));
  await host.turns.settle(turn, outcome);
  turn.finish();
  if (!command) void host.followModel();
  host.afterTurn();
}
