import type {
  ContentBlock,
  PromptResponse,
  SessionConfigOption,
  SessionModeState,
} from "@agentclientprotocol/sdk";
import type { SessionClient } from "../acp/session-client.js";
import type { SteeringResponse } from "../acp/steering.js";
import type { ProviderLaunch } from "../claude/provider-env.js";
import type { ModelInfo } from "../claude/types.js";
import { log } from "../logger.js";
import { backgroundParts, type BackgroundParts } from "./background/parts.js";
import { replaySession } from "./background/subagent-replay.js";
import { sessionQueryOptions } from "./configuration/claude-env.js";
import type { RowState } from "./lifecycle/history.js";
import { lifecycleParts, type LifecycleParts } from "./lifecycle/parts.js";
import type { ConversationReader } from "./lifecycle/saved.js";
import { ClaudeMessageConsumer } from "./stream/consumer.js";
import { showLiveMessage } from "./stream/live-messages.js";
import { streamParts, type StreamParts } from "./stream/parts.js";
import { ToolCallTracker } from "./stream/tool-calls.js";
import { turnParts, type TurnParts } from "./turns/parts.js";
import { processEnded, processHung } from "./turns/process-ended.js";
import { idleCompactionHost } from "./turns/idle-compact-turn.js";
import { enterPrompt, enterSteer, type PromptEntryHost } from "./turns/prompt-entry.js";
import { endTurn } from "./turns/turn-end.js";
import type { SessionOptions } from "./options.js";
import type { TurnQueue, TurnStarted } from "./turns/turn-queue.js";
import { rewindSession, type RewindPlan } from "./turns/rewind-turns.js";

/** Every part of a session, from each room (each room's parts.ts builds its own). */
type RoomParts = BackgroundParts & StreamParts & LifecycleParts & TurnParts;
type SessionParts = { tools: ToolCallTracker } & RoomParts;

/**
 * One ACP session: one private Claude Code conversation at a time. Prompts run one at a
 * time in arrival order, each after any turn Claude Code started itself; the consumer
 * hands every Claude message to the turn that owns it, or shows it between turns. The
 * session has each room build its parts and connects the rooms; what each part does is in
 * its room (README.md).
 */
export class Session {
  private sessionId: string;
  readonly cwd: string;
  /** The folders it works in: its cwd, then the additional directories. */
  readonly folders: readonly string[];
  private closed = false;
  /** Whether the last prompt failed (a listing shows it). */
  private lastTurnFailed = false;
  /** Hears that work started or ended (set by the registry the session is open in). */
  onStateChange: ((sessionId: string) => void) | undefined;
  /** The models the provider's gateway serves: the picker offers these, not Claude Code's. */
  private providerModels: readonly ModelInfo[] | undefined;
  private claudeCapabilities: readonly string[] = [];
  /** Whether Claude Code starts with the folder's project context (options.ts). */
  private projectContext: boolean;
  /** The folder's context was just granted: the next process's commands are announced. */
  private reannounce = false;
  private readonly parts: SessionParts;
  /** The turn queue, which most of the session's work goes through. */
  private readonly turns: TurnQueue;
  readonly client: SessionClient;
  private readonly consumer: ClaudeMessageConsumer;
  /** What a prompt goes through before the queue (prompt-entry.ts). */
  private readonly entry: PromptEntryHost;

  constructor(private readonly options: SessionOptions) {
    const { client, cwd } = options;
    this.client = client;
    this.sessionId = options.id;
    this.cwd = cwd;
    this.folders = [cwd, ...options.additionalDirectories];
    this.providerModels = options.providerModels;
    this.projectContext = options.projectContext;
    // What the rooms' hosts name alike (and what the session is opened with), each defined
    // once. A part another room builds later is read when called, by then built.
    const links = {
      ...options,
      id: () => this.id,
      closed: () => this.closed,
      mode: () => this.mode(),
      send: (update: () => Promise<void>) => this.send(update),
      query: () => this.parts.process.current,
      conversation: () => this.parts.process.conversation,
      configuration: () => this.parts.startup.requireConfiguration(),
      userTurn: () => (this.turns.current?.isFinished ? undefined : this.turns.current),
      idle: () => this.parts.idle(),
      followModel: () => this.followModel(),
      afterTurn: () => this.parts.titles.afterTurn(),
      projectContext: () => this.projectContext,
      stateChanged: (sessionId: string) => this.onStateChange?.(sessionId),
    };
    // Every room tracks the tool calls: the tracker comes first.
    const tools = new ToolCallTracker((call, name) => this.parts.terminals.announce(call, name));
    const background = backgroundParts({
      ...links,
      tools,
      closeToolCalls: (calls, reason) => this.turns.closeToolCalls(calls, () => reason),
    });
    const stream = streamParts({
      ...links,
      ...background,
      tools,
      capabilitiesReported: (capabilities) => (this.claudeCapabilities = capabilities),
      mcpServersReported: (servers) => this.parts.mcp.observe(servers),
      elicitationComplete: (id) => this.parts.mcp.elicitationComplete(id),
    });
    const lifecycle = lifecycleParts({
      ...links,
      opened: options,
      offerCommands: (commands) => stream.commands.offer(commands),
      providerModels: () => this.providerModels,
      turns: () => this.turns,
      rename: (sessionId) => {
        this.sessionId = sessionId;
        client.rebind(sessionId);
      },
      queryOptions: (conversation, mode, provider) =>
        sessionQueryOptions({
          ...options,
          provider,
          client: client.capabilities,
          conversation,
          mode,
          configuration: this.parts.startup.configuration,
          canUseTool: this.parts.canUseTool,
          onElicitation: this.parts.watchdog.pausedWhileClientAnswers(this.parts.mcp.onElicitation),
          ...this.parts.subagents.queryOptions(),
          projectContext: this.projectContext,
        }),
      started: (started) => {
        stream.usage.startNewProcess();
        stream.cache.reset();
        void this.consumer.consume(started);
        if (this.reannounce) {
          this.reannounce = false;
          void this.parts.startup.announceCommands(started);
        }
      },
      backgroundBusy: () => background.activity.busy,
      compaction: idleCompactionHost(() => this.parts),
      hung: (hung, error) => processHung(wired, hung, error),
    });
    const { process } = lifecycle;
    const turns = turnParts({
      ...links,
      ...background,
      ...stream,
      ...lifecycle,
      tools,
      liveQuery: () => process.live(this.mode()),
      promptSent: () => process.promptSent(),
      restartQuery: () => process.restart(),
      newConversation: (mode) => process.newConversation(mode),
      availableModes: () => lifecycle.startup.configuration?.availableModeIds() ?? new Set(),
      claudeCapabilities: () => this.claudeCapabilities,
    });
    this.parts = { tools, ...background, ...stream, ...lifecycle, ...turns };
    this.turns = turns.turns;
    const wired = {
      ...links,
      ...this.parts,
      failed: (failed: boolean) => (this.lastTurnFailed = failed),
    };
    this.entry = {
      ...wired,
      takeFailure: () => lifecycle.startup.takeFailure(),
      knownModels: () => lifecycle.startup.configuration?.knownModels ?? [],
      currentTurn: () => this.turns.current,
    };
    this.consumer = new ClaudeMessageConsumer(
      {
        id: links.id,
        isLive: (running) => process.current === running,
        userTurn: links.userTurn,
        heard: () => lifecycle.watchdog.heard(),
        endUserTurn: (turn, result) => endTurn(wired, turn, result),
        startOwnTurn: () => turns.ownTurns.started(),
        endOwnTurn: (result) => turns.ownTurns.ended(result),
        system: async (message) => {
          await this.send(() => background.subagents.system(message));
          await stream.systemMessages.handle(message);
        },
        show: (message) => showLiveMessage(wired, message),
        ended: (ended, failure) => processEnded(wired, ended, failure),
      },
      background.activity,
      background.tasks,
      stream.progress,
    );
  }

  /** The ACP session id: Claude's own id of the conversation. */
  get id(): string {
    return this.sessionId;
  }

  /** Starts Claude Code without waiting: the answer has what is known, its reports follow. */
  start(): Promise<void> {
    return this.parts.startup.start();
  }

  modes(): SessionModeState | undefined {
    return this.parts.startup.configuration?.modes();
  }

  configOptions(): SessionConfigOption[] {
    return this.parts.startup.configuration?.options() ?? [];
  }

  async setMode(modeId: string): Promise<void> {
    const { startup, process, idleClose } = this.parts;
    await idleClose.around(() => startup.requireConfiguration().setMode(modeId, process.current));
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<SessionConfigOption[]> {
    const { startup, process, idleClose } = this.parts;
    const configuration = startup.requireConfiguration();
    return idleClose.around(() => configuration.setOption(configId, value, process.current));
  }

  /** session/load: the whole saved conversation as updates, before the load is answered. */
  replay(transcripts: ConversationReader = this.options.transcripts): Promise<void> {
    const conversations = [...(this.options.earlier ?? []), this.parts.process.conversation];
    const host = { ...this.parts, transcripts, cwd: this.cwd, children: this.client.children };
    return replaySession(host, conversations);
  }

  /** Tells the client its slash commands and the title, then which MCP servers failed. */
  announce(): Promise<void> {
    return this.parts.startup.announce(this.parts);
  }

  /**
   * Queues a prompt, run after the ones before it; resolves with its stop reason. `signal`
   * cancels this prompt only; `started`: its turn starts (ACP v2 answers the prompt then).
   */
  prompt(
    blocks: readonly ContentBlock[],
    signal?: AbortSignal,
    started?: TurnStarted,
  ): Promise<PromptResponse> {
    return enterPrompt(this.entry, blocks, signal, started);
  }

  /** `_session/steering`: the message joins the running turn, or starts one (steering.ts). */
  steer(blocks: readonly ContentBlock[], idleBehavior?: string): SteeringResponse {
    return enterSteer(this.entry, blocks, idleBehavior);
  }

  /** One command or subagent stops; the turn goes on (background/tool-call-stops.ts). */
  stopToolCall(toolCallId: string): void {
    this.parts.tasks.stops.stop(toolCallId, this.parts.process.current);
  }

  /** Claude Code's own turn stops, while no prompt runs or waits; false when none runs. */
  stopOwnTurn(): boolean {
    return this.parts.ownTurns.stop();
  }

  /** `session/cancel` on one of this session's child sessions: that subagent stops. */
  cancelSubagent(childSessionId: string): boolean {
    return this.parts.subagents.stop(childSessionId);
  }

  /** Cancels the prompts, running or queued; an idle compaction, else Claude Code's own turn. */
  cancel(): void {
    this.turns.cancel();
    if (this.parts.idleCompaction.runs) this.parts.idleCompaction.cancel();
    else this.parts.ownTurns.stop();
  }

  /** Cancels everything and ends the Claude process. Closing twice is harmless. */
  close(): void {
    if (this.closed) return;
    const { busy, titles, terminals, process } = this.parts;
    busy();
    titles.stop();
    this.cancel();
    this.closed = true;
    terminals.close();
    this.options.client.close();
    process.restart();
  }

  /**
   * The client set another provider: the process goes when the session is idle (background
   * work keeps it until that ends), and the next turn resumes the conversation on a new one.
   */
  reroute(provider: ProviderLaunch | undefined, models: readonly ModelInfo[] | undefined): void {
    const { process, startup } = this.parts;
    process.reroute(provider, !this.turns.busy);
    // The picker offers the new provider's models (a gateway's), else Claude Code's.
    this.providerModels = models;
    const offered = models ?? startup.initialization?.models ?? this.options.models.known;
    void this.send(async () => startup.configuration?.offerModels(offered));
  }

  /**
   * The user trusted the folder: the process goes as for `reroute`; the next one resumes with
   * the folder's settings, hooks, MCP servers and instructions, and announces its commands.
   */
  loadProjectContext(): void {
    if (this.projectContext || this.closed) return;
    this.projectContext = true;
    this.reannounce = true;
    this.parts.process.renew(!this.turns.busy);
  }

  /** Whether Claude Code starts with the folder's project context now. */
  get loadsProjectContext(): boolean {
    return this.projectContext;
  }

  /** What a listing shows of it: work running, or how the last prompt ended. */
  get state(): RowState {
    if (this.turns.busy || this.parts.activity.busy) return "running";
    return this.lastTurnFailed ? "failed" : "idle";
  }

  /** The client retitled the conversation: the title it saved is published as any other. */
  titleChanged(): Promise<void> {
    return this.parts.titles.afterOpen();
  }

  /** session/rewind and session/edit_prompt (core/rewinds.ts, turns/rewind-turns.ts). */
  rewind(plan: RewindPlan): Promise<void> {
    return rewindSession({ ...this.parts, mode: () => this.mode() }, plan);
  }

  /** The mode a process started now runs in. */
  private mode(): string {
    return this.parts.startup.configuration?.current.mode ?? "default";
  }

  /** The model option follows what Claude Code runs after a turn (`/model` in the chat, a fallback). */
  private async followModel(): Promise<void> {
    const { process, startup } = this.parts;
    if (process.current) await startup.configuration?.followModel(process.current);
  }

  /** Sends an update; a client that went away is logged, not fatal to the turn. */
  private async send(update: () => Promise<void>): Promise<void> {
    try {
      await update();
    } catch (error) {
      log.warn(`session ${this.id}: could not send an update`, error);
    }
  }
}
