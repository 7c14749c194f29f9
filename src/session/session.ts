import { randomUUID } from "node:crypto";
import { homedir } from "node:os";
import type {
  ContentBlock,
  PromptResponse,
  SessionConfigOption,
  SessionModeState,
} from "@agentclientprotocol/sdk";
import type { SessionClient } from "../acp/session-client.js";
import type { ClaudeTranscripts } from "../claude/transcripts.js";
import type {
  ClaudeInitialization,
  ClaudeQuery,
  ClaudeQueryOptions,
  StartClaudeQuery,
} from "../claude/query.js";
import type {
  CanUseTool,
  McpServerConfig,
  PermissionResult,
  SDKMessage,
  SDKResultMessage,
  SDKUserMessage,
  UserContentBlock,
} from "../claude/types.js";
import { ClaudeNotRespondingError, ClaudeProcessExitedError } from "../errors.js";
import { log } from "../logger.js";
import { parseMcpCommand, type McpCommand } from "../mcp/command.js";
import { SessionMcp } from "../mcp/session-mcp.js";
import type { PermissionEffect } from "../permissions/choices.js";
import { createCanUseTool } from "../permissions/request.js";
import { HANDOFF_DENIAL, implementPlanPrompt, type PlanHandoff } from "../plan/handoff.js";
import { PlanFileTracker, plansDirectory } from "../plan/plan-file.js";
import { askQuestions } from "../questions/ask.js";
import { claudeCodeMeta } from "../tools/tool-call.js";
import { TimeoutError, withTimeout } from "../util/timeout.js";
import { hostQueryOptions } from "./claude-env.js";
import { ClaudeActivity } from "./claude-activity.js";
import { availableCommands } from "./commands.js";
import { ClaudeMessageConsumer, type SystemMessage } from "./consumer.js";
import { turnFailedNotice } from "./notices.js";
import { SystemMessages } from "./system-messages.js";
import { continuationId } from "./continuations.js";
import { DEFAULT_EFFORT, DEFAULT_MODEL, resolveModelValue } from "./config-options.js";
import { SessionConfiguration } from "./configuration.js";
import { isPermissionMode, processMayBypass } from "./modes.js";
import { outcomeOfResult, type TurnOutcome } from "./outcome.js";
import { promptToClaude } from "./prompt.js";
import type { AdapterSettings } from "./settings.js";
import { StreamTranslator } from "./stream.js";
import { ToolCallTracker, type TrackedToolCall } from "./tool-calls.js";
import { toPromptResponse, Turn } from "./turn.js";
import { addTurnUsage, UsageTracker } from "./usage.js";
import { TitleWatcher } from "./titles.js";
import { Watchdog, watchdogBounds } from "./watchdog.js";

/** After session/cancel the prompt is answered `cancelled` within this time at the latest. */
export const CANCEL_GRACE_MS = 1_500;
/** A cancelled turn that Claude Code has not stopped by then costs it its process. */
export const STOP_TIMEOUT_MS = 10_000;
/** How long reading Claude Code's current model after a turn may take. */
const MODEL_CHECK_TIMEOUT_MS = 2_000;
/** How long Claude Code may take to start. */
export const START_TIMEOUT_MS = 60_000;

/** The model name Claude Code gives the messages it makes up itself (API errors). */
const SYNTHETIC_MODEL = "<synthetic>";

/** Claude Code's capability for reporting how a question went unanswered. */
const UNANSWERED_CAPABILITY = "ask_user_question_unanswered_v1";

export interface SessionOptions {
  id: string;
  cwd: string;
  client: SessionClient;
  startQuery: StartClaudeQuery;
  executable: string;
  env: NodeJS.ProcessEnv;
  mcpServers: Record<string, McpServerConfig>;
  additionalDirectories: readonly string[];
  settings: AdapterSettings;
  transcripts: ClaudeTranscripts;
  /** An idle session's Claude process is closed after this long (0: never); the next prompt resumes it. */
  idleTimeoutMs: number;
  /** Continue this saved Claude conversation (session/load, resume, fork) instead of a new one. */
  resume?: string;
  /** The conversations before `resume` in this ACP session (plan handoffs), oldest first. */
  earlier?: readonly string[];
}

/** Why a tool call still open at the end of a turn is closed (conventions.md). */
const UNFINISHED = {
  cancelled: "The turn was cancelled before this tool call returned a result.",
  notRun: "Claude stopped this tool call before it ran.",
  noResult: "Claude ended the turn without returning a result for this tool.",
} as const;

/**
 * One ACP session: one private Claude Code conversation at a time. Prompts run one at a
 * time in arrival order, each after any turn Claude Code started itself; the consumer
 * hands every Claude message to the turn that owns it, or shows it between turns.
 */
export class Session {
  private sessionId: string;
  readonly cwd: string;
  private query: ClaudeQuery | undefined;
  /** Claude's own id of the current private conversation (a plan handoff starts a new one). */
  private claudeSessionId: string;
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
  private readonly planFile: PlanFileTracker;
  private configuration: SessionConfiguration | undefined;
  private initialization: ClaudeInitialization | undefined;
  private claudeCapabilities: readonly string[] = [];
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly titles: TitleWatcher;
  private readonly watchdog: Watchdog;
  /** Processes whose end was handled (a hung one's is handled before it is gone). */
  private readonly ended = new WeakSet<ClaudeQuery>();
  private readonly mcp: SessionMcp;
  private readonly systemMessages: SystemMessages;
  private readonly activity = new ClaudeActivity(() => this.scheduleIdleClose());
  private readonly consumer = new ClaudeMessageConsumer(
    {
      isLive: (query) => this.query === query,
      userTurn: () => (this.current?.isFinished ? undefined : this.current),
      heard: () => this.watchdog.heard(),
      endUserTurn: (turn, result) => this.endTurn(turn, result),
      endOwnTurn: (result) => this.endOwnTurn(result),
      system: (message) => this.systemMessages.handle(message),
      show: (message) => this.show(message),
      ended: (query, failure) => this.onQueryEnded(query, failure),
    },
    this.activity,
  );

  constructor(private readonly options: SessionOptions) {
    this.sessionId = options.id;
    this.cwd = options.cwd;
    this.claudeSessionId = options.resume ?? options.id;
    this.hasTranscript = options.resume !== undefined;
    this.planFile = new PlanFileTracker(plansDirectory(options.env));
    this.systemMessages = new SystemMessages({
      client: options.client,
      configuration: () => this.requireConfiguration(),
      capabilitiesReported: (capabilities) => (this.claudeCapabilities = capabilities),
      mcpServersReported: (servers) => this.mcp.observe(servers),
      elicitationComplete: (id) => this.mcp.elicitationComplete(id),
      send: (update) => this.send(update),
    });
    this.titles = new TitleWatcher(
      () => options.transcripts.info(this.claudeSessionId, this.cwd),
      (title, updatedAt) => options.client.updateSessionInfo({ title, updatedAt }),
    );
    const context = { cwd: options.cwd };
    this.stream = new StreamTranslator(options.client, this.tools, context);
    this.watchdog = new Watchdog(
      watchdogBounds(options.env),
      () => this.query,
      (query, error) => this.onHung(query, error),
    );
    const canUseTool = createCanUseTool({
      client: options.client,
      tools: this.tools,
      context,
      homeDir: options.env.HOME || homedir(),
      turnSignal: () => this.current?.abort.signal,
      workingDirectories: () => [options.cwd, ...options.additionalDirectories],
      planContext: () => ({
        availableModes: this.configuration?.availableModeIds() ?? new Set(),
        planText: this.current?.planText ?? "",
        ...(this.usage.usedPercent() === undefined
          ? {}
          : { contextUsedPercent: this.usage.usedPercent() }),
      }),
      beforeAsk: (toolName, input) => this.beforeAsk(toolName, input),
      onSelected: (effect, toolUse) => this.onSelected(effect, toolUse),
      askQuestions: options.client.supportsFormElicitation
        ? (toolUse, signal) =>
            askQuestions(
              {
                elicit: (request, s) => options.client.elicitForm(request, s),
                reportsUnanswered: () => this.claudeCapabilities.includes(UNANSWERED_CAPABILITY),
              },
              toolUse.id,
              toolUse.input,
              signal,
            )
        : undefined,
    });
    this.canUseTool = this.watchdog.pausedWhileClientAnswers(canUseTool);
    this.mcp = new SessionMcp({
      client: options.client,
      turnSignal: () => this.current?.abort.signal,
      openToolCalls: () => this.tools.open(),
      query: () => this.query,
    });
  }

  /** The ACP session id: Claude's own id of the conversation. */
  get id(): string {
    return this.sessionId;
  }

  get client(): SessionClient {
    return this.options.client;
  }

  /** Starts Claude Code and waits until it has reported what it offers. */
  async start(): Promise<ClaudeInitialization> {
    const { settings, env } = this.options;
    const bypassAllowed = processMayBypass(env, process.getuid?.()) && !settings.bypassDisabled;
    this.configuration = new SessionConfiguration(
      {
        state: { mode: "default", model: DEFAULT_MODEL, effort: DEFAULT_EFFORT, fastMode: false },
        models: [],
        autoDisabled: settings.autoDisabled,
        bypassAllowed,
        booleanOptions: !!this.options.client.capabilities.session?.configOptions?.boolean,
      },
      {
        modeChanged: (mode) => this.options.client.updateCurrentMode(mode),
        optionsChanged: (options) => this.options.client.updateConfigOptions(options),
      },
    );
    const query = this.startQuery(this.configuration.startMode(settings.defaultMode));
    try {
      const claudeId = await withTimeout(query.sessionId, START_TIMEOUT_MS, "Claude Code start-up");
      // A prewarmed process names the conversation itself; the session takes that name,
      // so ACP ids and Claude's saved conversations always agree.
      if (claudeId !== this.claudeSessionId && !this.options.resume) {
        this.claudeSessionId = claudeId;
        this.sessionId = claudeId;
        this.options.client.rebind(claudeId);
      }
      this.initialization = await withTimeout(
        query.initialization(),
        START_TIMEOUT_MS,
        "Claude Code start-up",
      );
    } catch (error) {
      this.query = undefined;
      query.close();
      throw error;
    }
    this.configuration.setModels(this.initialization.models);
    await this.adoptInitialSettings(query);
    this.scheduleIdleClose();
    return this.initialization;
  }

  /**
   * The initial mode and model from settings, now that the model list is known: a
   * mode the session cannot offer falls back to `default`.
   */
  private async adoptInitialSettings(query: ClaudeQuery): Promise<void> {
    const configuration = this.configuration!;
    const { defaultMode, model } = this.options.settings;
    const modelInfo = model ? resolveModelValue(model, this.initialization!.models) : undefined;
    await configuration.initialize(
      modelInfo?.value ?? (model || DEFAULT_MODEL),
      defaultMode,
      (mode) => query.setPermissionMode(mode),
    );
  }

  modes(): SessionModeState | undefined {
    return this.configuration?.modes();
  }

  configOptions(): SessionConfigOption[] {
    return this.configuration?.options() ?? [];
  }

  async setMode(modeId: string): Promise<void> {
    await this.requireConfiguration().setMode(modeId, this.query);
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<SessionConfigOption[]> {
    return this.requireConfiguration().setOption(configId, value, this.query);
  }

  private requireConfiguration(): SessionConfiguration {
    if (!this.configuration) throw new ClaudeProcessExitedError("The session has not started.");
    return this.configuration;
  }

  /**
   * session/load: the whole saved conversation as updates, before the load is answered.
   * Tool calls the transcript leaves without a result are closed, never left pending.
   */
  async replay(): Promise<void> {
    for (const conversation of [...(this.options.earlier ?? []), this.claudeSessionId]) {
      const messages = await this.options.transcripts.messages(conversation, this.cwd);
      for (const message of messages) await this.stream.replay(message);
    }
    await this.closeOpenToolCalls(() => UNFINISHED.noResult);
    this.stream.endTurn();
  }

  /** Tells the client which slash commands it can offer, then which MCP servers failed. */
  async announceCommands(): Promise<void> {
    if (!this.initialization) return;
    await this.options.client.updateAvailableCommands(
      availableCommands(this.initialization.commands),
    );
    void this.mcp.reportStartFailures().catch((error: unknown) => log.warn("MCP status", error));
  }

  /**
   * Queues a prompt; it runs after the ones before it and resolves with its stop reason.
   * `signal` (the request's own cancellation) cancels this prompt only.
   */
  async prompt(blocks: readonly ContentBlock[], signal?: AbortSignal): Promise<PromptResponse> {
    const content = promptToClaude(blocks);
    if (this.closed) throw new ClaudeProcessExitedError("The session is closed.");
    const mcpCommand = parseMcpCommand(blocks);
    if (mcpCommand) return this.runMcpCommand(mcpCommand);
    const turn = new Turn();
    this.queued.add(turn);
    signal?.addEventListener("abort", () => this.cancelTurn(turn), { once: true });
    this.cancelIdleClose();
    const run = this.chain.then(() => this.runTurn(turn, content));
    this.chain = run.catch((error: unknown) => log.error("turn failed", error));
    return toPromptResponse(await turn.outcome, turn.usage);
  }

  /** `/mcp` waits its turn like any prompt, so its answer never lands inside another turn. */
  private runMcpCommand(command: McpCommand): Promise<PromptResponse> {
    const run = this.chain.then(() => {
      if (this.closed) throw new ClaudeProcessExitedError("The session is closed.");
      this.cancelIdleClose();
      const mode = this.configuration?.current.mode ?? "default";
      return this.mcp.run(command, this.query ?? this.startQuery(mode));
    });
    this.chain = run.then(
      () => this.scheduleIdleClose(),
      (error: unknown) => log.warn("/mcp failed", error),
    );
    return run;
  }

  /** Cancels the running prompt and the ones queued behind it. */
  cancel(): void {
    for (const turn of this.queued) turn.cancel();
    if (this.current) this.cancelTurn(this.current);
  }

  /** Cancels one turn: a queued one never runs, the running one is interrupted. */
  private cancelTurn(turn: Turn): void {
    if (turn !== this.current) return turn.cancel();
    if (turn.isSettled || turn.cancelRequested) return;
    turn.cancel();
    if (this.query) this.watchdog.interrupted(this.query, this.query.interrupt());
    setTimeout(() => {
      if (!turn.isSettled) void this.settle(turn, { stopReason: "cancelled" });
    }, CANCEL_GRACE_MS).unref();
  }

  /** Cancels everything and ends the Claude process. Closing twice is harmless. */
  close(): void {
    if (this.closed) return;
    this.cancelIdleClose();
    this.titles.stop();
    this.cancel();
    this.closed = true;
    this.options.client.close();
    const query = this.query;
    this.query = undefined;
    query?.close();
  }

  private async runTurn(turn: Turn, content: UserContentBlock[]): Promise<void> {
    // A turn Claude Code started itself runs to its end first; the prompt stays queued
    // (cancellable as such) meanwhile, and then gets a turn and a reply of its own.
    await this.activity.untilOwnTurnEnds(turn.abort.signal);
    this.queued.delete(turn);
    if (turn.cancelRequested || this.closed) {
      turn.settle({ stopReason: "cancelled" });
      turn.finish();
      return;
    }
    const query = this.query ?? this.startQuery(this.configuration?.current.mode ?? "default");
    this.current = turn;
    this.hasTranscript = true;
    turn.prompt = content;
    try {
      query.send(userMessage(content, turn));
      this.watchdog.watch();
      await turn.outcome;
      await withTimeout(turn.finished, STOP_TIMEOUT_MS, "Stopping the turn");
    } catch (error) {
      if (!(error instanceof TimeoutError)) throw error;
      // Claude Code did not stop: replace its process; the transcript survives.
      log.warn(`session ${this.id}: Claude Code did not stop; restarting it`);
      this.restartQuery();
      turn.finish();
    } finally {
      this.watchdog.unwatch();
      this.current = undefined;
      this.stream.endTurn();
      this.scheduleIdleClose();
    }
  }

  /**
   * An idle session gives its Claude process back after the idle time; the next prompt
   * resumes the conversation from its transcript, in the same mode and model.
   */
  private scheduleIdleClose(): void {
    this.cancelIdleClose();
    const { idleTimeoutMs } = this.options;
    if (idleTimeoutMs <= 0 || this.closed) return;
    this.idleTimer = setTimeout(() => {
      // Background work (a subagent, a command) would die with the process.
      if (this.current || this.queued.size || !this.query || this.activity.busy) return;
      log.debug(`session ${this.id}: idle; closing its Claude Code process`);
      this.restartQuery();
    }, idleTimeoutMs);
    this.idleTimer.unref();
  }

  private cancelIdleClose(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private startQuery(mode: string, fresh: { exactSessionId?: boolean } = {}): ClaudeQuery {
    const { cwd, executable, env, mcpServers, client } = this.options;
    const configuration = this.configuration;
    const model = configuration?.claudeModel;
    const options: ClaudeQueryOptions = {
      ...hostQueryOptions({
        executable,
        env,
        supportsForms: client.supportsFormElicitation,
        mcpServers,
      }),
      cwd,
      ...(this.hasTranscript
        ? { resume: this.claudeSessionId }
        : { sessionId: this.claudeSessionId, ...fresh }),
      additionalDirectories: [...this.options.additionalDirectories],
      permissionMode: isPermissionMode(mode) ? mode : "default",
      ...(model ? { model } : {}),
      flagSettings: configuration?.flagSettings() ?? {},
      canUseTool: this.canUseTool,
      onElicitation: this.watchdog.pausedWhileClientAnswers(this.mcp.onElicitation),
    };
    const query = this.options.startQuery(options);
    this.query = query;
    this.usage.startNewProcess();
    void this.consumer.consume(query);
    return query;
  }

  private restartQuery(): void {
    const query = this.query;
    this.query = undefined;
    query?.close();
  }

  /** A message that is neither a result nor a system message: session updates. */
  private async show(message: Exclude<SDKMessage, SystemMessage | SDKResultMessage>) {
    const turn = this.current?.isFinished ? undefined : this.current;
    if (message.type === "assistant" && !message.parent_tool_use_id) {
      if (message.error && turn) turn.apiError = message.error;
      // Claude Code's synthetic error message: the error reaches the client as the
      // prompt's JSON-RPC error, not as words from Claude.
      // In a turn Claude Code started itself, its result's notice carries the error.
      if (message.error && message.message.model === SYNTHETIC_MODEL) return;
      for (const block of message.message.content) {
        if (block.type === "tool_use" && typeof block.input === "object" && block.input) {
          this.planFile.observe(block.name, block.input as Record<string, unknown>);
        }
      }
    }
    await this.send(() => this.stream.handle(message));
    if (message.type === "stream_event" && !message.parent_tool_use_id) {
      this.usage.observe(message.event);
      // Each API call's end moves the context size: the client hears it then, not only at
      // the end of the turn (the window is known from the first result on).
      const usage = message.event.type === "message_delta" ? this.usage.update() : undefined;
      if (usage) await this.send(() => this.options.client.updateUsage(usage));
    }
  }

  private async endTurn(turn: Turn, result: SDKResultMessage): Promise<void> {
    this.usage.observeResult(result, undefined);
    turn.usage = addTurnUsage(turn.usage, result);
    if (turn.handoff && !turn.cancelRequested) {
      await this.handOffPlan(turn, turn.handoff);
      return;
    }
    await this.followModel();
    if (!turn.isSettled) {
      const usage = this.usage.update();
      if (usage) await this.send(() => this.options.client.updateUsage(usage));
    }
    await this.settle(turn, outcomeOfResult(result, turn));
    turn.finish();
    this.titles.afterTurn();
  }

  /**
   * A turn Claude Code started itself ended: its usage is reported, and what it left open
   * is closed unless the user's turn, which may share those tool calls, still runs.
   */
  private async endOwnTurn(result: SDKResultMessage): Promise<void> {
    this.usage.observeResult(result, undefined);
    await this.followModel();
    const outcome = outcomeOfResult(result, { cancelRequested: false });
    if ("error" in outcome) {
      await this.send(() =>
        this.options.client.sendNotice(turnFailedNotice(outcome.error.message)),
      );
    }
    const usage = this.usage.update();
    if (usage) await this.send(() => this.options.client.updateUsage(usage));
    if (!this.current || this.current.isFinished) {
      this.stream.endTurn();
      await this.closeOpenToolCalls(() => UNFINISHED.noResult);
    }
    this.titles.afterTurn();
  }

  /** Before an ask is built: ExitPlanMode needs the complete plan for its options. */
  private async beforeAsk(toolName: string, input: Record<string, unknown>): Promise<void> {
    if (toolName === "ExitPlanMode" && this.current) {
      this.current.planText = await this.planFile.planText(input);
    }
  }

  /** A validated plan-mode choice: switch the mode, or hand the plan to a new conversation. */
  private async onSelected(
    effect: PermissionEffect,
    toolUse: { id: string; name: string; input: Record<string, unknown> },
  ): Promise<PermissionResult | undefined> {
    if (effect.type !== "exitPlan") return undefined;
    const turn = this.current;
    if (effect.clearContext && turn) {
      turn.handoff = { plan: turn.planText ?? "", mode: effect.mode, toolUseId: toolUse.id };
      this.tools.completeSilently(toolUse.id);
      return { behavior: "deny", message: HANDOFF_DENIAL, interrupt: true };
    }
    await this.send(() => this.requireConfiguration().modeChanged(effect.mode));
    return undefined;
  }

  /**
   * Clear-context handoff: the old private conversation is dropped, a new one starts in
   * the chosen mode with the plan as its first prompt, and the same ACP turn goes on.
   */
  private async handOffPlan(turn: Turn, handoff: PlanHandoff): Promise<void> {
    turn.handoff = undefined;
    turn.apiError = undefined;
    await this.send(() => this.requireConfiguration().modeChanged(handoff.mode));
    const old = this.query;
    this.claudeSessionId = continuationId(this.claudeSessionId);
    this.hasTranscript = false;
    const query = this.startQuery(handoff.mode, { exactSessionId: true });
    old?.close();
    this.hasTranscript = true;
    this.stream.endTurn();
    query.send(userMessage([{ type: "text", text: implementPlanPrompt(handoff.plan) }], turn));
  }

  /** The model option follows what Claude Code runs after a turn (`/model` in the chat, a fallback). */
  private async followModel(): Promise<void> {
    const { query, configuration } = this;
    if (!query || !configuration) return;
    try {
      const model = await withTimeout(query.currentModel(), MODEL_CHECK_TIMEOUT_MS, "model check");
      await this.send(() => configuration.modelReported(model));
    } catch (error) {
      log.debug(`session ${this.id}: could not read Claude Code's model`, error);
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
    await this.closeOpenToolCalls((call) =>
      turn.cancelRequested
        ? UNFINISHED.cancelled
        : call.status === "pending"
          ? UNFINISHED.notRun
          : UNFINISHED.noResult,
    );
    turn.settle(outcome);
  }

  /** Tool calls still open are closed as failed, saying why: none is left pending. */
  private async closeOpenToolCalls(reason: (call: TrackedToolCall) => string): Promise<void> {
    for (const call of this.tools.open()) {
      const text = reason(call);
      call.status = "failed";
      await this.send(() =>
        this.options.client.updateToolCall({
          toolCallId: call.id,
          status: "failed",
          _meta: claudeCodeMeta(call),
          content: [{ type: "content", content: { type: "text", text } }],
        }),
      );
    }
  }

  /** A process that stopped answering is ended, and the session recovers as after a crash. */
  private onHung(query: ClaudeQuery, error: ClaudeNotRespondingError): void {
    log.warn(`session ${this.id}: ${error.message}`);
    query.terminate();
    void this.onQueryEnded(query, error);
  }

  private async onQueryEnded(query: ClaudeQuery, failure: unknown): Promise<void> {
    if (this.ended.has(query)) return;
    this.ended.add(query);
    if (failure) log.warn(`session ${this.id}: Claude Code ended`, failure);
    const active = this.query === query;
    if (active) {
      this.query = undefined;
      this.activity.reset();
    }
    query.close();
    // A replaced process ending late says nothing about the live one.
    if (!active && this.query) return;
    const turn = this.current;
    if (!turn || turn.isFinished) return;
    // A process that died before it said anything for this turn (e.g. an idle process
    // that ended just as the prompt came) never saw the prompt: resume and send it again.
    // A hung one may have read it: it is not sent twice.
    const hung = failure instanceof ClaudeNotRespondingError;
    if (!hung && !turn.heardFromClaude && !turn.resent && !turn.cancelRequested && turn.prompt) {
      turn.resent = true;
      log.info(`session ${this.id}: Claude Code ended before the prompt reached it; resuming`);
      this.startQuery(this.configuration?.current.mode ?? "default").send(
        userMessage(turn.prompt, turn),
      );
      return;
    }
    turn.abort.abort(new Error("Claude Code ended"));
    const outcome: TurnOutcome = turn.cancelRequested
      ? { stopReason: "cancelled" }
      : {
          error: hung
            ? failure
            : new ClaudeProcessExitedError(
                `Claude Code exited unexpectedly${failure instanceof Error ? `: ${failure.message}` : ""}. ` +
                  "The next prompt resumes the conversation.",
              ),
        };
    await this.settle(turn, outcome);
    turn.finish();
  }
}

/** A user message of `turn`, under an id of its own that Claude Code's result names. */
function userMessage(content: UserContentBlock[], turn: Turn): SDKUserMessage {
  const uuid = randomUUID();
  turn.sentIds.add(uuid);
  return {
    type: "user",
    message: { role: "user", content },
    parent_tool_use_id: null,
    uuid,
  };
}
