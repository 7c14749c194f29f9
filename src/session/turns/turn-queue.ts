import { randomUUID } from "node:crypto";
import type { PromptResponse } from "@agentclientprotocol/sdk";
import type { SessionClient } from "../../acp/session-client.js";
import type { ClaudeQuery } from "../../claude/query.js";
import type { SDKUserMessage, UserContentBlock } from "../../claude/types.js";
import { ClaudeProcessExitedError } from "../../errors.js";
import { log } from "../../logger.js";
import { TimeoutError, withTimeout } from "../../util/timeout.js";
import type { ClaudeActivity } from "../background/claude-activity.js";
import type { ClaudeTasks } from "../background/claude-tasks.js";
import type { TurnOutcome } from "./outcome.js";
import type { StreamTranslator } from "../stream/stream.js";
import type { SessionTerminals } from "../background/terminals.js";
import type { ToolCallTracker, TrackedToolCall } from "../stream/tool-calls.js";
import { toPromptResponse, Turn } from "./turn.js";
import { closeUnfinished, UNFINISHED } from "./unfinished.js";
import type { Watchdog } from "../lifecycle/watchdog.js";

/**
 * A turn starts, under the id of its user message; `saved`: Claude Code keeps that message
 * under this id (a prompt), not so a command the agent answers itself (`exclusive`).
 */
export type TurnStarted = (messageId: string, saved?: boolean) => void;

/** After session/cancel the prompt is answered `cancelled` within this time at the latest. */
export const CANCEL_GRACE_MS = 1_500;
/** A cancelled turn that Claude Code has not stopped by then costs it its process. */
export const STOP_TIMEOUT_MS = 10_000;

/** What the queue needs from its session. */
export interface TurnQueueHost {
  id(): string;
  closed(): boolean;
  readonly client: SessionClient;
  readonly tools: ToolCallTracker;
  readonly stream: StreamTranslator;
  readonly terminals: SessionTerminals;
  readonly activity: ClaudeActivity;
  readonly tasks: ClaudeTasks;
  readonly watchdog: Watchdog;
  /** The live Claude process, if any. */
  query(): ClaudeQuery | undefined;
  /** The live process, started (resuming the transcript) if there is none. */
  liveQuery(): ClaudeQuery;
  /** A prompt reached Claude Code: a restart resumes the transcript from now on. */
  promptSent(): void;
  /** Replaces the process (the transcript survives). */
  restartQuery(): void;
  /** The session is busy (a prompt came) or idle again (a turn ended). */
  busy(): void;
  idle(): void;
  /** Sends an update; a client that went away is logged, not fatal to the turn. */
  send(update: () => Promise<void>): Promise<void>;
}

/**
 * The session's prompts: they run one at a time in arrival order, each after any turn
 * Claude Code started itself; a cancelled one is answered within the grace time, and
 * what a turn leaves open is closed before its prompt is answered.
 */
export class TurnQueue {
  /** The prompt Claude Code is answering. */
  current: Turn | undefined;
  private readonly queued = new Set<Turn>();
  /** The agent's own commands, running or waiting (a sign-in waits for the user). */
  private readonly commands = new Set<AbortController>();
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly host: TurnQueueHost) {}

  /** Whether a prompt runs or waits. */
  get busy(): boolean {
    return !!this.current || this.queued.size > 0;
  }

  /**
   * Queues a prompt; it runs after the ones before it and resolves with its stop reason.
   * `signal` (the request's own cancellation) cancels this prompt only; `started` is called
   * when it goes to Claude Code, with the id of its user message (Claude Code's transcript
   * keeps it); a prompt cancelled while it waits never starts.
   */
  async prompt(
    content: UserContentBlock[],
    signal?: AbortSignal,
    started?: TurnStarted,
  ): Promise<PromptResponse> {
    if (this.host.closed()) throw new ClaudeProcessExitedError("The session is closed.");
    const turn = new Turn();
    this.queued.add(turn);
    signal?.addEventListener("abort", () => this.cancelTurn(turn), { once: true });
    this.host.busy();
    const run = this.chain.then(() => this.runTurn(turn, content, started));
    this.chain = run.catch((error: unknown) => log.error("turn failed", error));
    return toPromptResponse(await turn.outcome, turn.usage);
  }

  /**
   * Runs `task` on the live process in the prompts' order (after the turns before it), for
   * what the agent answers itself without a turn of Claude's (`/mcp`). The task's signal
   * ends with `signal` (the request's own cancellation) or session/cancel; `started` is
   * called when it starts, with an id of its own (it sends Claude Code no message).
   */
  exclusive<T>(
    task: (query: ClaudeQuery, signal: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
    started?: TurnStarted,
  ): Promise<T> {
    if (this.host.closed()) throw new ClaudeProcessExitedError("The session is closed.");
    this.host.busy();
    const abort = new AbortController();
    signal?.addEventListener("abort", () => abort.abort(), { once: true });
    this.commands.add(abort);
    const run = this.chain
      .then(() => {
        if (this.host.closed()) throw new ClaudeProcessExitedError("The session is closed.");
        const query = this.host.liveQuery();
        started?.(randomUUID());
        return task(query, abort.signal);
      })
      .finally(() => this.commands.delete(abort));
    this.chain = run.then(
      () => this.host.idle(),
      (error: unknown) => {
        log.warn(`session ${this.host.id()}: a command failed`, error);
        this.host.idle();
      },
    );
    return run;
  }

  /** Resolves once the turns and commands queued so far have ended. */
  async drained(): Promise<void> {
    for (let chain; chain !== this.chain;) await (chain = this.chain);
  }

  /** Cancels the running prompt and the ones queued behind it. */
  cancel(): void {
    for (const command of this.commands) command.abort();
    for (const turn of this.queued) turn.cancel();
    if (this.current) this.cancelTurn(this.current);
  }

  /** Cancels one turn: a queued one never runs, the running one is interrupted. */
  private cancelTurn(turn: Turn): void {
    if (turn !== this.current) return turn.cancel();
    if (turn.isSettled || turn.cancelRequested) return;
    turn.cancel();
    const query = this.host.query();
    if (query) this.host.watchdog.interrupted(query, query.interrupt());
    setTimeout(() => {
      if (!turn.isSettled) void this.settle(turn, { stopReason: "cancelled" });
    }, CANCEL_GRACE_MS).unref();
  }

  private async runTurn(
    turn: Turn,
    content: UserContentBlock[],
    started?: TurnStarted,
  ): Promise<void> {
    const { host } = this;
    // A turn Claude Code started itself runs to its end first; the prompt stays queued
    // (cancellable as such) meanwhile, and then gets a turn and a reply of its own.
    await host.activity.untilOwnTurnEnds(turn.abort.signal);
    this.queued.delete(turn);
    if (turn.cancelRequested || host.closed()) {
      turn.settle({ stopReason: "cancelled" });
      turn.finish();
      return;
    }
    const query = host.liveQuery();
    this.current = turn;
    host.promptSent();
    turn.prompt = content;
    const message = userMessage(content, turn);
    started?.(message.uuid, true);
    try {
      query.send(message);
      host.watchdog.watch();
      await turn.outcome;
      await withTimeout(turn.finished, STOP_TIMEOUT_MS, "Stopping the turn");
    } catch (error) {
      if (!(error instanceof TimeoutError)) throw error;
      // Claude Code did not stop: replace its process; the transcript survives.
      log.warn(`session ${host.id()}: Claude Code did not stop; restarting it`);
      host.restartQuery();
      turn.finish();
    } finally {
      host.watchdog.unwatch();
      this.current = undefined;
      host.stream.endTurn();
      host.idle();
    }
  }

  /** Closes what is still open, then answers the prompt. */
  async settle(turn: Turn, outcome: TurnOutcome): Promise<void> {
    if (turn.isSettled) return;
    await this.closeOpenToolCalls((call) =>
      turn.cancelRequested
        ? UNFINISHED.cancelled
        : call.status === "pending"
          ? UNFINISHED.notRun
          : UNFINISHED.noResult,
    );
    turn.settle(outcome);
  }

  /**
   * Tool calls still open are closed as failed, saying why: none is left pending. A call of
   * a subagent running in the background goes on: its result, or its run's end, closes it.
   */
  async closeOpenToolCalls(reason: (call: TrackedToolCall) => string): Promise<void> {
    const { tools, tasks } = this.host;
    await this.closeToolCalls(
      tools.open().filter((call) => !tasks.holds(call)),
      reason,
    );
  }

  /** These tool calls will get no result: they are closed as failed, saying why. */
  closeToolCalls(
    calls: readonly TrackedToolCall[],
    reason: (call: TrackedToolCall) => string,
  ): Promise<void> {
    return closeUnfinished(this.host, calls, reason);
  }
}

/**
 * A user message of `turn`, under an id of its own that Claude Code's result names. It is a
 * person's input (their prompt, a steer, their approval of a plan): Claude Code treats a
 * message without an origin as unattributed, and features that gate on a human prompt
 * would behave otherwise than in its terminal.
 */
export function userMessage(
  content: UserContentBlock[],
  turn: Turn,
): SDKUserMessage & { uuid: string } {
  const uuid = randomUUID();
  turn.sentIds.add(uuid);
  return {
    type: "user",
    message: { role: "user", content },
    parent_tool_use_id: null,
    origin: { kind: "human" },
    uuid,
  };
}
