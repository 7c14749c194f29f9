import type { SessionClient } from "../../acp/session-client.js";
import type { TurnEnd } from "../../acp/channel.js";
import type { SDKResultMessage } from "../../claude/types.js";
import { ClaudeProcessExitedError } from "../../errors.js";
import type { ClaudeActivity } from "../background/claude-activity.js";
import { turnFailedNotice } from "../stream/notices.js";
import { outcomeOfResult } from "./outcome.js";
import { addTurnUsage, type UsageTracker } from "../stream/usage.js";

/** What the turns Claude Code starts itself need from their session. */
export interface OwnTurnHost {
  readonly client: SessionClient;
  readonly usage: UsageTracker;
  readonly activity: ClaudeActivity;
  /** A user's turn runs: it shares the tool calls a turn of Claude's own leaves open. */
  userTurnRuns(): boolean;
  /** Ends the streamed messages and closes the tool calls left open. */
  closeOpen(): Promise<void>;
  /** The model option follows what Claude Code runs now. */
  followModel(): Promise<void>;
  /** A turn ended (the title may follow). */
  afterTurn(): void;
  /** Sends an update; a client that went away is logged, not fatal. */
  send(update: () => Promise<void>): Promise<void>;
  /** A prompt runs or waits. */
  promptsWait(): boolean;
  /** Interrupts the live Claude Code process's work; false when there is none. */
  interrupt(): boolean;
}

/**
 * The turns Claude Code starts itself (a background task's result, a wake-up): each is
 * reported to the client as it starts and ends (a v2 client hears `running`, then `idle`
 * with the stop reason and tokens; v1 has no place for it), its usage follows, a failure
 * is a notice, and what it left open is closed.
 */
export class OwnTurns {
  /** The client heard that a turn of Claude's own runs, and has not heard its end. */
  private reported = false;
  /** The user stopped the running turn: it ends cancelled, not failed. */
  private stopRequested = false;

  constructor(private readonly host: OwnTurnHost) {}

  /** Claude Code began answering on its own: the client hears it before any of it. */
  async started(): Promise<void> {
    if (this.reported) return;
    this.reported = true;
    await this.host.send(() => this.host.client.ownTurnStarted());
  }

  /**
   * A turn Claude Code started itself ended: its usage is reported, and what it left open
   * is closed unless the user's turn, which may share those tool calls, still runs.
   */
  async ended(result: SDKResultMessage): Promise<void> {
    const { host } = this;
    host.usage.observeResult(result, undefined);
    await host.followModel();
    const outcome = outcomeOfResult(result, { cancelRequested: this.stopRequested });
    this.stopRequested = false;
    if ("error" in outcome) {
      await host.send(() => host.client.sendNotice(turnFailedNotice(outcome.error.message)));
    }
    const usage = host.usage.update();
    if (usage) await host.send(() => host.client.updateUsage(usage));
    if (!host.userTurnRuns()) await host.closeOpen();
    await this.report(
      "error" in outcome ? outcome : { ...outcome, usage: addTurnUsage(undefined, result) },
    );
    host.afterTurn();
  }

  /**
   * The user stops the turn Claude Code runs on its own (session/cancel with no prompt, AIR's
   * stop of its task): interrupted, it ends cancelled. Only while no prompt runs or waits,
   * since a prompt's turn may share its tool calls; false when it is not stopped.
   */
  stop(): boolean {
    const { host } = this;
    if (!host.activity.ownTurnRunning || host.promptsWait() || !host.interrupt()) return false;
    this.stopRequested = true;
    return true;
  }

  /** The process ended: nothing of Claude's own runs any more, and a turn it ran failed. */
  async processEnded(failure: unknown): Promise<void> {
    this.host.activity.reset();
    this.stopRequested = false;
    const reason = failure instanceof Error ? `: ${failure.message}` : "";
    await this.report({ error: new ClaudeProcessExitedError(`Claude Code exited${reason}.`) });
  }

  private async report(end: TurnEnd): Promise<void> {
    if (!this.reported) return;
    this.reported = false;
    await this.host.send(() => this.host.client.ownTurnEnded(end));
  }
}
