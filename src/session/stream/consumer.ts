import type { ClaudeQuery } from "../../claude/query.js";
import type { SDKMessage, SDKResultMessage, SystemMessage } from "../../claude/types.js";
import type { ClaudeActivity } from "../background/claude-activity.js";
import type { ClaudeTasks } from "../background/claude-tasks.js";
import { startupFailureError } from "../lifecycle/startup-failure.js";
import type { Turn } from "../turns/turn.js";
import type { StreamProgress } from "./stream-progress.js";
import { markFirst } from "../../runtime/marks.js";

/** What the consumer needs from its session. */
export interface ConsumerHost {
  /** The ACP session's id (a failed start names it). */
  id(): string;
  /** Whether the process is still the session's live one (not replaced, not closed). */
  isLive(query: ClaudeQuery): boolean;
  /** The user's turn Claude Code is answering, until its result has arrived. */
  userTurn(): Turn | undefined;
  /** Claude Code said something (the watchdog listens). */
  heard(): void;
  /** The result that answers the user's turn. */
  endUserTurn(turn: Turn, result: SDKResultMessage): Promise<void>;
  /** Claude Code began a turn of its own: the client hears it before anything of it. */
  startOwnTurn(): Promise<void>;
  /** The result of a turn Claude Code started itself. */
  endOwnTurn(result: SDKResultMessage): Promise<void>;
  /** Claude Code's system messages: mode and command changes, notices. */
  system(message: SystemMessage): Promise<void>;
  /** Everything else, shown as session updates (`turn`: the user's turn, if one runs). */
  show(message: Exclude<SDKMessage, SystemMessage | SDKResultMessage>): Promise<void>;
  /** The process's stream ended, cleanly or with `failure`. */
  ended(query: ClaudeQuery, failure: unknown): Promise<void>;
}

/**
 * The session-lifetime consumer of Claude Code's messages. It reads each process from its
 * start until it ends, not only while a prompt runs: Claude Code goes on between prompts
 * (a background subagent's result, a task notification, a wake-up start a turn of its
 * own). Each message goes to the user's turn that owns it when one runs, and is otherwise
 * shown as ordinary session updates. A result settles a user's prompt only when it
 * answers that prompt's own message, never because it arrived while the prompt ran.
 */
export class ClaudeMessageConsumer {
  constructor(
    private readonly host: ConsumerHost,
    private readonly activity: ClaudeActivity,
    /** Learns of Claude Code's tasks from every message, before the message is shown. */
    private readonly tasks: ClaudeTasks,
    /** Learns how far the messages are shown (a permission ask waits for it). */
    private readonly progress: StreamProgress,
  ) {}

  /** Reads one process's messages until its stream ends or it is no longer the live one. */
  async consume(query: ClaudeQuery): Promise<void> {
    let failure: unknown;
    /** The cause Claude Code named before it exited, if it failed to start. */
    let startupFailure: Error | undefined;
    try {
      for await (const message of query.messages) {
        if (!this.host.isLive(query)) break;
        // Claude Code exits right after it: the end of the process reports it, once, to the
        // prompt waiting for it or else to the next one.
        const failedStart =
          message.type === "result" ? startupFailureError(message, this.host.id()) : undefined;
        if (failedStart) {
          startupFailure ??= failedStart;
          continue;
        }
        this.progress.started();
        try {
          await this.dispatch(message, query);
        } finally {
          this.progress.finished();
        }
      }
    } catch (error) {
      failure = error;
    }
    await this.host.ended(query, startupFailure ?? failure);
  }

  private async dispatch(message: SDKMessage, query: ClaudeQuery): Promise<void> {
    markClaudeMilestone(message);
    const turn = this.host.userTurn();
    if (turn) turn.heardFromClaude = true;
    this.host.heard();
    await this.tasks.observe(message, query);
    if (message.type === "result") {
      if (turn?.answeredBy(message)) return this.host.endUserTurn(turn, message);
      this.activity.ownTurnEnded();
      return this.host.endOwnTurn(message);
    }
    if (message.type === "system") {
      if (message.subtype === "background_tasks_changed") {
        this.activity.tasksChanged(message.tasks.length);
      }
      return this.host.system(message);
    }
    if (!turn && answersOnMainThread(message) && !this.activity.ownTurnRunning) {
      this.activity.ownTurnStarted();
      await this.host.startOwnTurn();
    }
    // A cancelled prompt already answered: what Claude Code still says for it is not shown.
    if (turn?.isSettled) return;
    await this.host.show(message);
  }
}

/** The model answering on the main thread: a turn runs. */
function answersOnMainThread(message: SDKMessage): boolean {
  return (
    (message.type === "stream_event" || message.type === "assistant") && !message.parent_tool_use_id
  );
}

/**
 * Where Claude Code's first turn of this process stands, for the bench to set beside the
 * SDK's own (bench/cold-path.ts): the turn's start, its first streamed event, its result.
 */
function markClaudeMilestone(message: SDKMessage): void {
  if (message.type === "stream_event") markFirst("claude-first-event");
  else if (message.type === "system" && message.subtype === "init") markFirst("claude-turn-init");
  else if (message.type === "result") markFirst("claude-result");
}
