import { cleanMultiline } from "../util/text.js";
import { ShownToolCalls } from "./shown-tool-call.js";
import { shownNotice, type Notice } from "./notices.js";
import { shownCompaction, type Compaction } from "./compaction.js";
import { OwnTurnTask, readsAsyncTasks, type AirTaskUpdate } from "./air/async-tasks.js";
import { childSessionsForm, isAirClient } from "./air/extension.js";
import { airCommands, type SkillFiles } from "./air/skills.js";
import { airGoalMeta, type GoalState } from "./air/goal.js";
import { airConfigOptions } from "./air/modes.js";
import { sessionFailureMeta } from "./air/session-failure.js";
import type { ClientChannel, TurnEnd } from "./channel.js";
import { type ChildRoute, ChildSessions, type UnstableSessionUpdate } from "./child-sessions.js";
import {
  supportsFormElicitation,
  supportsUrlElicitation,
  type AgentClientCapabilities,
} from "./unstable-capabilities.js";
import type {
  AvailableCommand,
  ContentBlock,
  CreateElicitationResponse,
  ElicitationSchema,
  PlanEntry,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionConfigOption,
  SessionInfoUpdate,
  SessionUpdate,
  ToolCall,
  ToolCallUpdate,
  UsageUpdate,
} from "@agentclientprotocol/sdk";

/** `_meta` of an update, e.g. `{claudeCode: {parentToolUseId}}` for subagent traffic. */
type Meta = Record<string, unknown>;

export type { Notice };

/**
 * Everything a session says to its ACP client, as intention-named senders, so no
 * renderer builds `{sessionId, update: {sessionUpdate: ...}}` by hand. Sends are
 * awaited by the turn that owns them: a lost update is an error, not a log line.
 */
export class SessionClient {
  private closed = false;
  /** Compactions already shown as tool calls: later reports update them. */
  private readonly compactionCalls = new Set<string>();
  /** The subagents shown as child sessions, for clients that declare `subagents`. */
  children: SessionChildren | undefined;
  /** How its tool calls are shown (shown-tool-call.ts). */
  private readonly toolCalls: ShownToolCalls;
  /** AIR's task of the turn Claude Code runs on its own (air/async-tasks.ts). */
  private readonly ownTurnTask: OwnTurnTask;
  /** The client of the root session (this one, or a child's parent): its children and skills. */
  root: SessionClient = this;
  /** The skills Claude Code last reported, for a client that shows them (AIR). */
  skillFiles: SkillFiles | undefined;

  constructor(
    /** Where the messages go: the connection, through its protocol's adapter. */
    private readonly client: ClientChannel,
    private id: string,
    readonly capabilities: AgentClientCapabilities,
    /** Set on a child session's client: its sends wait for the child's announcement. */
    private readonly route?: ChildRoute,
  ) {
    this.toolCalls = new ShownToolCalls(capabilities, {
      hasChild: (thread) => this.root.children?.has(thread) ?? false,
      skills: () => this.root.skillFiles,
    });
    this.ownTurnTask = new OwnTurnTask(capabilities);
  }

  /**
   * The client of a thread's updates: the subagent's child session when the client shows
   * subagents as child sessions, otherwise this session (`thread` null: the main thread).
   */
  forThread(thread: string | null): SessionClient {
    return (thread && this.children?.client(thread)) || this;
  }

  get sessionId(): string {
    return this.id;
  }

  /** The session learned its final id (from Claude Code) before anything was sent. */
  rebind(sessionId: string): void {
    this.id = sessionId;
  }

  /** The session was closed: the client hears nothing more about it. */
  close(): void {
    this.closed = true;
    this.children?.close();
  }

  private async update(update: SessionUpdate): Promise<void> {
    if (this.closed) return;
    if (this.route) {
      await this.route.ready();
      this.route.sent(update);
    }
    await this.client.update({ sessionId: this.sessionId, update });
  }

  /**
   * An update of ACP's unstable schema (subagents), to a client that declared it. The
   * stable SDK types do not name it; the wire shape is the unstable schema's.
   */
  async sendUnstable(sessionId: string, update: UnstableSessionUpdate): Promise<void> {
    if (this.closed) return;
    if (this.route) await this.route.ready();
    await this.client.update({ sessionId, update });
  }

  /** A request the user must answer: a child session shows it needs action meanwhile. */
  private async asking<T>(ask: () => Promise<T>): Promise<T> {
    return this.route ? this.route.whileAsking(ask) : ask();
  }

  sendAgentContent(content: ContentBlock, messageId?: string, meta?: Meta): Promise<void> {
    return this.update({
      sessionUpdate: "agent_message_chunk",
      content,
      ...(messageId ? { messageId } : {}),
      ...(meta ? { _meta: meta } : {}),
    });
  }

  /** Claude's words, cleaned of escape sequences and control characters; nothing if empty. */
  async sendAgentText(text: string, messageId?: string, meta?: Meta): Promise<void> {
    const shown = cleanMultiline(text);
    if (shown) await this.sendAgentContent({ type: "text", text: shown }, messageId, meta);
  }

  /** A thought with nothing to read (a signature-only block's, whitespace) is not sent. */
  async sendAgentThought(text: string, messageId?: string, meta?: Meta): Promise<void> {
    const shown = cleanMultiline(text);
    if (!shown.trim()) return;
    await this.update({
      sessionUpdate: "agent_thought_chunk",
      content: { type: "text", text: shown },
      ...(messageId ? { messageId } : {}),
      ...(meta ? { _meta: meta } : {}),
    });
  }

  sendUserContent(content: ContentBlock, messageId?: string): Promise<void> {
    return this.update({
      sessionUpdate: "user_message_chunk",
      content,
      ...(messageId ? { messageId } : {}),
    });
  }

  async sendToolCall(toolCall: ToolCall): Promise<void> {
    for (const message of this.toolCalls.announced(toolCall)) await this.update(message);
  }

  async updateToolCall(update: ToolCallUpdate): Promise<void> {
    const shown = this.toolCalls.updated(update);
    // A patch to make waits; any other update goes at once, in the order it was sent.
    for (const message of shown instanceof Promise ? await shown : shown)
      await this.update(message);
  }

  updatePlan(entries: PlanEntry[], meta?: Meta): Promise<void> {
    return this.update({ sessionUpdate: "plan", entries, ...(meta ? { _meta: meta } : {}) });
  }

  /** Something the user should see apart from Claude's reply (notices.ts). */
  async sendNotice(notice: Notice): Promise<void> {
    const update = shownNotice(notice, this.capabilities);
    if (update) await this.update(update);
  }

  /**
   * The session failed apart from any prompt (its Claude Code did not start): AIR's typed
   * failure report to a client that declared it (air/session-failure.ts), the notice to any other.
   */
  async sendFailure(notice: Notice, error: Error): Promise<void> {
    const failure = sessionFailureMeta(this.capabilities, this.id, error);
    if (!failure) return this.sendNotice(notice);
    await this.update({ sessionUpdate: "session_info_update", _meta: failure });
  }

  /**
   * A compaction of the conversation: `compaction_update` for clients that declare
   * `session.compaction`, otherwise a `think` tool call under the same id (compaction.ts).
   */
  async sendCompaction(compaction: Compaction): Promise<void> {
    const shown = shownCompaction(compaction, this.capabilities);
    if (shown.update) return this.update(shown.update);
    if (this.compactionCalls.has(compaction.id)) {
      return this.updateToolCall({ toolCallId: compaction.id, ...shown.call });
    }
    this.compactionCalls.add(compaction.id);
    await this.sendToolCall({ toolCallId: compaction.id, kind: "think", ...shown.call });
  }

  /**
   * Claude Code started a turn of its own: a v2 client hears the session running, AIR a task
   * (air/async-tasks.ts).
   */
  async ownTurnStarted(): Promise<void> {
    if (!this.closed) await this.client.ownTurnStarted?.(this.sessionId);
    const task = this.ownTurnTask.started();
    if (task) await this.updateTask(task);
  }

  /** Whether `taskId` names AIR's task of the turn Claude Code runs on its own now. */
  isOwnTurnTask(taskId: string): boolean {
    return this.ownTurnTask.is(taskId);
  }

  /** Claude Code's own turn ended: a v2 client hears the session idle, and why; AIR its task end. */
  async ownTurnEnded(end: TurnEnd): Promise<void> {
    if (!this.closed) await this.client.ownTurnEnded?.(this.sessionId, end);
    const task = this.ownTurnTask.ended(end);
    if (task) await this.updateTask(task);
  }

  updateUsage(usage: UsageUpdate): Promise<void> {
    return this.update({ sessionUpdate: "usage_update", ...usage });
  }

  /** The commands; `skills`: which are skills, and their files, as far as known (AIR shows them). */
  updateAvailableCommands(commands: AvailableCommand[], skills?: SkillFiles): Promise<void> {
    if (skills) this.skillFiles = skills;
    const availableCommands = airCommands(commands, skills, this.capabilities);
    return this.update({ sessionUpdate: "available_commands_update", availableCommands });
  }

  updateCurrentMode(currentModeId: string): Promise<void> {
    return this.update({ sessionUpdate: "current_mode_update", currentModeId });
  }

  updateConfigOptions(configOptions: SessionConfigOption[]): Promise<void> {
    const shown = airConfigOptions(configOptions, this.capabilities);
    return this.update({ sessionUpdate: "config_option_update", configOptions: shown });
  }

  /** A background task started or changed: AIR hears it (air/async-tasks.ts), no other client. */
  async updateTask(update: AirTaskUpdate): Promise<void> {
    if (readsAsyncTasks(this.capabilities)) await this.sendUnstable(this.sessionId, update);
  }

  /** Claude Code's goal as it is now (null: none): AIR hears it (air/goal.ts), no other client. */
  async updateGoal(goal: GoalState | null): Promise<void> {
    if (!isAirClient(this.capabilities)) return;
    await this.update({ sessionUpdate: "session_info_update", _meta: airGoalMeta(goal) });
  }

  updateSessionInfo(info: SessionInfoUpdate): Promise<void> {
    return this.update({ sessionUpdate: "session_info_update", ...info });
  }

  /** Asks the user to fill in a form (`elicitation/create`, form mode). */
  elicitForm(
    request: { message: string; requestedSchema: ElicitationSchema; toolCallId?: string },
    signal: AbortSignal,
  ): Promise<CreateElicitationResponse> {
    return this.asking(() =>
      this.client.createElicitation(
        { mode: "form", sessionId: this.sessionId, ...request },
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      ),
    );
  }

  /** The client renders form elicitations (clientCapabilities.elicitation.form). */
  get supportsFormElicitation(): boolean {
    return supportsFormElicitation(this.capabilities);
  }

  /** Asks the user to visit a page (`elicitation/create`, URL mode). */
  elicitUrl(
    request: { message: string; url: string; elicitationId: string; toolCallId?: string },
    signal: AbortSignal,
  ): Promise<CreateElicitationResponse> {
    return this.asking(() =>
      this.client.createElicitation(
        { mode: "url", sessionId: this.sessionId, ...request },
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      ),
    );
  }

  /** The page of a URL elicitation was visited to the end (`elicitation/complete`). */
  completeElicitation(elicitationId: string): Promise<void> {
    return this.client.completeElicitation({ elicitationId });
  }

  /** The client shows skills apart from other commands, with their files (AIR). */
  get showsSkills(): boolean {
    return isAirClient(this.capabilities);
  }

  /** The client sends users to pages (clientCapabilities.elicitation.url). */
  get supportsUrlElicitation(): boolean {
    return supportsUrlElicitation(this.capabilities);
  }

  /**
   * Asks the user. The signal is forwarded as `$/cancel_request` and also stops our
   * waiting at once, so a client that ignores cancellation cannot hold a tool call.
   * `folders`: the session's, whose files the request may show (AIR's patch of an edit).
   */
  async requestPermission(
    params: Omit<RequestPermissionRequest, "sessionId">,
    signal: AbortSignal,
    folders: readonly string[] = [],
  ): Promise<RequestPermissionResponse> {
    const { before, request: shown } = await this.toolCalls.permission(params, folders);
    for (const message of before) await this.update(message);
    const request = { sessionId: this.sessionId, ...shown };
    return this.asking(() =>
      this.client.requestPermission(request, {
        cancellationSignal: signal,
        stopWaitingOnCancel: true,
      }),
    );
  }
}

/** A session's child sessions, each with a client of its own. */
export type SessionChildren = ChildSessions<SessionClient>;

/** A session's client, with child sessions when the client declares `subagents`. */
export function sessionClient(
  context: ClientChannel,
  sessionId: string,
  capabilities: AgentClientCapabilities,
): SessionClient {
  const client = new SessionClient(context, sessionId, capabilities);
  const form = childSessionsForm(capabilities);
  if (form) {
    client.children = new ChildSessions(
      client,
      (childId, route) => {
        const child = new SessionClient(context, childId, capabilities, route);
        child.root = client;
        return child;
      },
      form,
    );
  }
  return client;
}
