import { homedir } from "node:os";
import type { ContentBlock, PromptResponse } from "@agentclientprotocol/sdk";
import type { SessionClient } from "../acp/session-client.js";
import type {
  ClaudeInitialization,
  ClaudeQuery,
  ClaudeQueryOptions,
  StartClaudeQuery,
} from "../claude/query.js";
import type {
  CanUseTool,
  McpServerConfig,
  SDKMessage,
  SDKResultMessage,
  UserContentBlock,
} from "../claude/types.js";

type SDKSystemMessageAny = Extract<SDKMessage, { type: "system" }>;
import { ClaudeProcessExitedError } from "../errors.js";
import { log } from "../logger.js";
import { createCanUseTool } from "../permissions/request.js";
import { TimeoutError, withTimeout } from "../util/timeout.js";
import { availableCommands } from "./commands.js";
import { outcomeOfResult, type TurnOutcome } from "./outcome.js";
import { promptToClaude } from "./prompt.js";
import { StreamTranslator } from "./stream.js";
import { ToolCallTracker } from "./tool-calls.js";
import { toPromptResponse, Turn } from "./turn.js";
import { addTurnUsage, UsageTracker } from "./usage.js";

/** After session/cancel the prompt is answered `cancelled` within this time at the latest. */
export const CANCEL_GRACE_MS = 1_500;
/** A cancelled turn that Claude Code has not stopped by then costs it its process. */
export const STOP_TIMEOUT_MS = 10_000;
/** How long Claude Code may take to start. */
export const START_TIMEOUT_MS = 60_000;

export interface SessionOptions {
  id: string;
  cwd: string;
  client: SessionClient;
  startQuery: StartClaudeQuery;
  executable: string;
  env: Record<string, string | undefined>;
  mcpServers: Record<string, McpServerConfig>;
}

/** Why a tool call still open at the end of a turn is closed (conventions.md). */
const UNFINISHED = {
  cancelled: "The turn was cancelled before this tool call returned a result.",
  notRun: "Claude stopped this tool call before it ran.",
  noResult: "Claude ended the turn without returning a result for this tool.",
} as const;

/**
 * One ACP session: one private Claude Code conversation. Prompts run one at a time
 * in arrival order; every Claude message is dispatched to the turn that owns it.
 */
export class Session {
  readonly id: string;
  readonly cwd: string;
  private query: ClaudeQuery | undefined;
  /** True once a prompt reached Claude Code, so a restart resumes the transcript. */
  private hasTranscript = false;
  private current: Turn | undefined;
  private readonly queued = new Set<Turn>();
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly tools = new ToolCallTracker();
  private readonly stream: StreamTranslator;
  private readonly canUseTool: CanUseTool;
  private readonly usage = new UsageTracker();
  /** The model Claude Code reported at the start of its latest turn. */
  private model: string | undefined;
  private initialization: ClaudeInitialization | undefined;

  constructor(private readonly options: SessionOptions) {
    this.id = options.id;
    this.cwd = options.cwd;
    const context = { cwd: options.cwd };
    this.stream = new StreamTranslator(options.client, this.tools, context);
    this.canUseTool = createCanUseTool({
      client: options.client,
      tools: this.tools,
      context,
      homeDir: homedir(),
      turnSignal: () => this.current?.abort.signal,
      workingDirectories: () => [options.cwd],
      planContext: () => ({ availableModes: new Set(["acceptEdits"]), planText: "" }),
    });
  }

  get client(): SessionClient {
    return this.options.client;
  }

  /** Starts Claude Code and waits until it has reported what it offers. */
  async start(): Promise<ClaudeInitialization> {
    const query = this.startQuery();
    try {
      this.initialization = await withTimeout(
        query.initialization(),
        START_TIMEOUT_MS,
        "Claude Code start-up",
      );
      return this.initialization;
    } catch (error) {
      this.query = undefined;
      query.close();
      throw error;
    }
  }

  /** Tells the client which slash commands it can offer. */
  async announceCommands(): Promise<void> {
    if (!this.initialization) return;
    await this.options.client.updateAvailableCommands(
      availableCommands(this.initialization.commands),
    );
  }

  /** Queues a prompt; it runs after the ones before it and resolves with its stop reason. */
  async prompt(blocks: readonly ContentBlock[]): Promise<PromptResponse> {
    const content = promptToClaude(blocks);
    if (this.closed) throw new ClaudeProcessExitedError("The session is closed.");
    const turn = new Turn();
    this.queued.add(turn);
    const run = this.chain.then(() => this.runTurn(turn, content));
    this.chain = run.catch((error: unknown) => log.error("turn failed", error));
    return toPromptResponse(await turn.outcome, turn.usage);
  }

  /** Cancels the running prompt and the ones queued behind it. */
  cancel(): void {
    for (const turn of this.queued) turn.cancel();
    const turn = this.current;
    if (!turn || turn.isSettled || turn.cancelRequested) return;
    turn.cancel();
    this.query?.interrupt().catch((error: unknown) => log.warn("interrupt failed", error));
    setTimeout(() => {
      if (!turn.isSettled) void this.settle(turn, { stopReason: "cancelled" });
    }, CANCEL_GRACE_MS).unref();
  }

  /** Cancels everything and ends the Claude process. Closing twice is harmless. */
  close(): void {
    if (this.closed) return;
    this.cancel();
    this.closed = true;
    const query = this.query;
    this.query = undefined;
    query?.close();
  }

  private async runTurn(turn: Turn, content: UserContentBlock[]): Promise<void> {
    this.queued.delete(turn);
    if (turn.cancelRequested || this.closed) {
      turn.settle({ stopReason: "cancelled" });
      turn.finish();
      return;
    }
    const query = this.query ?? this.startQuery();
    this.current = turn;
    this.hasTranscript = true;
    try {
      query.send({ type: "user", message: { role: "user", content }, parent_tool_use_id: null });
      await turn.outcome;
      await withTimeout(turn.finished, STOP_TIMEOUT_MS, "Stopping the turn");
    } catch (error) {
      if (!(error instanceof TimeoutError)) throw error;
      // Claude Code did not stop: replace its process; the transcript survives.
      log.warn(`session ${this.id}: Claude Code did not stop; restarting it`);
      this.restartQuery();
      turn.finish();
    } finally {
      this.current = undefined;
      this.stream.endTurn();
    }
  }

  private startQuery(): ClaudeQuery {
    const { cwd, executable, env, mcpServers } = this.options;
    const options: ClaudeQueryOptions = {
      cwd,
      ...(this.hasTranscript ? { resume: this.id } : { sessionId: this.id }),
      mcpServers,
      permissionMode: "default",
      canUseTool: this.canUseTool,
      executable,
      env,
    };
    const query = this.options.startQuery(options);
    this.query = query;
    this.usage.startNewProcess();
    void this.pump(query);
    return query;
  }

  private restartQuery(): void {
    const query = this.query;
    this.query = undefined;
    query?.close();
  }

  private async pump(query: ClaudeQuery): Promise<void> {
    let failure: unknown;
    try {
      for await (const message of query.messages) {
        if (this.query !== query) break;
        await this.dispatch(message);
      }
    } catch (error) {
      failure = error;
    }
    await this.onQueryEnded(query, failure);
  }

  private async dispatch(message: SDKMessage): Promise<void> {
    const turn = this.current;
    if (message.type === "result") {
      if (turn) await this.endTurn(turn, message);
      return;
    }
    if (message.type === "system") {
      await this.handleSystem(message);
      return;
    }
    // Updates belong to a live turn; after its answer, the client must hear nothing more.
    if (!turn || turn.isSettled) return;
    if (message.type === "assistant" && message.error && !message.parent_tool_use_id) {
      turn.apiError = message.error;
    }
    if (message.type === "stream_event" && !message.parent_tool_use_id) {
      this.usage.observe(message.event);
    }
    await this.send(() => this.stream.handle(message));
  }

  private async endTurn(turn: Turn, result: SDKResultMessage): Promise<void> {
    this.usage.observeResult(result, this.model);
    turn.usage = addTurnUsage(turn.usage, result);
    if (!turn.isSettled) {
      const usage = this.usage.update();
      if (usage) await this.send(() => this.options.client.updateUsage(usage));
    }
    await this.settle(turn, outcomeOfResult(result, turn));
    turn.finish();
  }

  private async handleSystem(message: SDKSystemMessageAny): Promise<void> {
    switch (message.subtype) {
      case "init":
        this.model = message.model;
        return;
      case "commands_changed":
        await this.send(() =>
          this.options.client.updateAvailableCommands(availableCommands(message.commands)),
        );
        return;
      default:
        return;
    }
  }

  /** Sends an update; a client that went away is logged, not fatal to the turn. */
  private async send(update: () => Promise<void>): Promise<void> {
    try {
      await update();
    } catch (error) {
      log.warn(`session ${this.id}: could not send an update`, error);
    }
  }

  /** Closes what is still open, then answers the prompt. */
  private async settle(turn: Turn, outcome: TurnOutcome): Promise<void> {
    if (turn.isSettled) return;
    for (const call of this.tools.open()) {
      const reason = turn.cancelRequested
        ? UNFINISHED.cancelled
        : call.status === "pending"
          ? UNFINISHED.notRun
          : UNFINISHED.noResult;
      call.status = "failed";
      try {
        await this.options.client.updateToolCall({
          toolCallId: call.id,
          status: "failed",
          content: [{ type: "content", content: { type: "text", text: reason } }],
        });
      } catch (error) {
        log.warn(`session ${this.id}: could not close tool call ${call.id}`, error);
      }
    }
    turn.settle(outcome);
  }

  private async onQueryEnded(query: ClaudeQuery, failure: unknown): Promise<void> {
    if (failure) log.warn(`session ${this.id}: Claude Code ended`, failure);
    const active = this.query === query;
    if (active) this.query = undefined;
    query.close();
    // A replaced process ending late says nothing about the live one.
    if (!active && this.query) return;
    const turn = this.current;
    if (!turn || turn.isFinished) return;
    turn.abort.abort(new Error("Claude Code ended"));
    const outcome: TurnOutcome = turn.cancelRequested
      ? { stopReason: "cancelled" }
      : {
          error: new ClaudeProcessExitedError(
            `Claude Code exited unexpectedly${failure instanceof Error ? `: ${failure.message}` : ""}. ` +
              "The next prompt resumes the conversation.",
          ),
        };
    await this.settle(turn, outcome);
    turn.finish();
  }
}
