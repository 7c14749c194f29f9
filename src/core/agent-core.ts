import type {
  ContentBlock,
  ListSessionsResponse,
  PromptResponse,
  SessionConfigOption,
} from "@agentclientprotocol/sdk";
import type { SteeringResponse } from "../acp/steering.js";
import type { ApplyTrustParams } from "../acp/workspace-trust.js";
import type { AgentClientCapabilities } from "../acp/unstable-capabilities.js";
import { log } from "../logger.js";
import type { ProviderConfig } from "../providers/provider-config.js";
import type { ProviderListing } from "../providers/providers.js";
import { SavedPrompts } from "../session/lifecycle/saved-prompts.js";
import { SessionRegistry } from "../session/registry.js";
import type { Session } from "../session/session.js";
import { AuthRequiredError } from "../errors.js";
import { Accounts } from "./accounts.js";
import type { AuthStatusInfo } from "./auth-status.js";
import { ClosedSessions } from "./closed-sessions.js";
import type { AgentDependencies, SessionClientFactory } from "./dependencies.js";
import {
  type ForkParams,
  type OpenParams,
  type SavedSessionParams,
  SessionOpening,
} from "./opening.js";
import { SavedSessions, type ListParams } from "./saved-sessions.js";
import { ListFeed, type ListListener } from "./list-feed.js";
import { filesChangedSince, type FileChanges } from "./file-changes.js";
import type { ListedPage, ListedSession } from "../session/lifecycle/history.js";
import { RewindMarks, rewoundTranscripts } from "../claude/cuts/rewind-marks.js";
import {
  SessionRewinds,
  type FilesChoice,
  type FilesReport,
  type RewindResult,
} from "./rewinds.js";
import { SessionTrust } from "./session-trust.js";
import type { TrustAssessment } from "./workspace-trust.js";
import type { TurnStarted } from "../session/turns/turn-queue.js";

/**
 * What the agent does, whatever protocol version asks: the open sessions, and the
 * operations on them and on the login. It speaks in plain values and the project's typed
 * errors (src/errors.ts); each protocol adapter (agent.ts for ACP v1, acp/v2/ for the v2
 * draft) turns requests into these calls and the results into its messages.
 *
 * It only routes: an operation on an open session goes to the session, the rest to the
 * module that holds it (opening.ts, saved-sessions.ts, closed-sessions.ts, accounts.ts),
 * which share the one registry of open sessions built here.
 */
export class AgentCore {
  private readonly sessions = new SessionRegistry();
  private readonly closed = new ClosedSessions(this.sessions);
  private readonly accounts: Accounts;
  private readonly opening: SessionOpening;
  private readonly saved: SavedSessions;
  private readonly trust: SessionTrust;
  private readonly rewinds: SessionRewinds;
  private readonly deps: AgentDependencies;
  private readonly feed: ListFeed;

  constructor(given: AgentDependencies, sessionClient: SessionClientFactory) {
    // Every reader of a conversation sees it as a rewind left it (rewind-marks.ts).
    const marks = new RewindMarks(given.env);
    const deps = (this.deps = {
      ...given,
      transcripts: rewoundTranscripts(given.transcripts, marks),
    });
    const { sessions, closed } = this;
    const rewinds = (this.rewinds = new SessionRewinds(given.transcripts, marks, sessions));
    const prompts = new SavedPrompts(deps.env);
    this.accounts = new Accounts(deps, sessions, () => this.opening.warmUp());
    const { accounts } = this;
    const trust = (this.trust = new SessionTrust(deps.env, sessions));
    this.opening = new SessionOpening({
      deps,
      sessionClient,
      sessions,
      prompts,
      accounts,
      closed,
      trust,
      rewinds,
    });
    this.saved = new SavedSessions(deps, sessions, prompts, closed);
    this.feed = new ListFeed(deps.transcripts, this.saved.openState);
    sessions.onStateChange((id) => this.feed.touched(id));
  }

  /** The client's capabilities are known (initialize): a spare process can start. */
  initialize(capabilities: AgentClientCapabilities): void {
    this.opening.initialize(capabilities);
    this.deps.preload?.();
  }

  /** The client is gone: every session closes. */
  disconnected(): void {
    this.accounts.status.stop();
    this.feed.close();
    this.sessions.closeAll();
    log.info("client disconnected; sessions closed");
  }

  /**
   * The session leaves this connection without closing (its turn goes on, for another
   * connection to take over: served-sessions.ts); undefined if it is not open here.
   */
  release(sessionId: string): Session | undefined {
    return this.sessions.remove(sessionId);
  }

  /** The session, if it is open here. */
  find(sessionId: string): Session | undefined {
    return this.sessions.find(sessionId);
  }

  /** A running session another connection released is open here now. */
  adopt(session: Session): void {
    this.sessions.add(session);
    this.closed.opened(session.id);
  }

  newSession(params: OpenParams): Promise<Session> {
    return this.opening.newSession(params);
  }

  /**
   * A saved session, opened again: `replay` sends its conversation before it is answered
   * (session/load; v2's resume from the start).
   */
  resume(params: SavedSessionParams, options: { replay: boolean }): Promise<Session> {
    return this.opening.resume(params, options);
  }

  fork(params: ForkParams): Promise<Session> {
    return this.opening.fork(params);
  }

  list(params: ListParams): Promise<ListSessionsResponse> {
    return this.saved.list(params);
  }

  /** A page of the listing with what an extension shows of each row (saved-sessions.ts). */
  listPage(
    params: ListParams,
    options: { includeWorktrees?: boolean; limit?: number },
  ): Promise<ListedPage> {
    return this.saved.page(params, options);
  }

  /** The rows of these sessions, wherever they were saved; unknown ids are left out. */
  rows(sessionIds: readonly string[]): Promise<ListedSession[]> {
    return this.saved.rows(sessionIds);
  }

  /** `listener` hears how the listing of `cwd` changes, until closed (list-feed.ts). */
  subscribeList(cwd: string, listener: ListListener): Promise<{ close(): void }> {
    return this.feed.subscribe(cwd, listener);
  }

  close(sessionId: string): Promise<void> {
    return this.closed.close(sessionId);
  }

  delete(sessionId: string): Promise<void> {
    return this.saved.delete(sessionId).finally(() => this.feed.touched(sessionId));
  }

  /** `session/set_title` (saved-sessions.ts). */
  setTitle(sessionId: string, title: string, meta?: unknown): Promise<string> {
    return this.saved.setTitle(sessionId, title, meta).finally(() => this.feed.touched(sessionId));
  }

  /** `session/status` (saved-sessions.ts). */
  sessionStatus(sessionId: string): Promise<"open" | "saved"> {
    return this.saved.status(sessionId);
  }

  /** `session/archive` and `session/unarchive` (saved-sessions.ts). */
  setArchived(sessionId: string, archived: boolean, meta?: unknown): Promise<void> {
    return this.saved
      .setArchived(sessionId, archived, meta)
      .finally(() => this.feed.touched(sessionId));
  }

  /**
   * Resolves with the turn's stop reason; `started`: see Session.prompt. A session whose
   * folder's context waits for the user's trust asks first (session-trust.ts).
   */
  async prompt(
    sessionId: string,
    prompt: ContentBlock[],
    signal?: AbortSignal,
    started?: TurnStarted,
  ): Promise<PromptResponse> {
    const session = this.sessions.require(sessionId);
    if (!(await this.trust.beforePrompt(session))) return { stopReason: "cancelled" };
    try {
      return await session.prompt(prompt, signal, started);
    } catch (error) {
      // Claude Code refused the credentials: the status says so until they change.
      if (error instanceof AuthRequiredError) await this.accounts.status.refused();
      throw error;
    }
  }

  /** The trust of a session's folder, as the responses that open it state it. */
  workspaceTrust(session: Session): TrustAssessment | undefined {
    return this.trust.of(session);
  }

  /** `trust/apply` (session-trust.ts). */
  applyTrust(params: ApplyTrustParams): Promise<TrustAssessment> {
    return this.trust.apply(params);
  }

  steer(sessionId: string, prompt: ContentBlock[], idleBehavior?: string): SteeringResponse {
    return this.sessions.require(sessionId).steer(prompt, idleBehavior);
  }

  setMode(sessionId: string, modeId: string): Promise<void> {
    return this.sessions.require(sessionId).setMode(modeId);
  }

  setConfigOption(
    sessionId: string,
    configId: string,
    value: string | boolean,
  ): Promise<SessionConfigOption[]> {
    return this.sessions.require(sessionId).setConfigOption(configId, value);
  }

  /** One command or subagent of the session stops; its turn goes on. */
  stopToolCall(sessionId: string, toolCallId: string): void {
    this.sessions.require(sessionId).stopToolCall(toolCallId);
  }

  /**
   * The turn Claude Code started itself in the session stops, when `taskId` is the task a
   * client was shown for it (AIR's) and no prompt runs or waits; false otherwise.
   */
  stopOwnTurn(sessionId: string, taskId: string): boolean {
    const session = this.sessions.find(sessionId);
    return !!session && session.client.isOwnTurnTask(taskId) && session.stopOwnTurn();
  }

  /** `session/cancel`: the session's turn (or trust ask), or the subagent of a child session id. */
  cancel(sessionId: string): void {
    const session = this.sessions.find(sessionId);
    if (session) this.trust.cancel(session);
    this.sessions.cancel(sessionId);
  }

  /** `session/rewind` (rewinds.ts); `files`: the files go back too, or are only counted. */
  rewind(sessionId: string, toMessageId: string, files?: FilesChoice): Promise<RewindResult> {
    return this.rewinds.rewind(sessionId, toMessageId, files);
  }

  /** `session/edit_prompt` (rewinds.ts): answered as the prompt it runs. */
  editPrompt(
    sessionId: string,
    edit: { messageId: string; content: ContentBlock[]; files?: "restore" },
    signal?: AbortSignal,
    started?: TurnStarted,
  ): Promise<{ answer: PromptResponse; files?: FilesReport }> {
    return this.rewinds.editPrompt(
      sessionId,
      edit.messageId,
      edit.content,
      edit.files,
      (id, prompt) => this.prompt(id, prompt, signal, started),
    );
  }

  /** The files changed since the prompt `userMessageId` was sent (file-changes.ts). */
  filesChangedSince(sessionId: string, userMessageId: string): Promise<FileChanges> {
    return filesChangedSince(this.sessions.require(sessionId), userMessageId);
  }

  /** A login the client ran in a terminal, checked (accounts.ts). */
  authenticate(methodId: string): Promise<void> {
    return this.accounts.authenticate(methodId);
  }

  /** `auth/status` (auth-status.ts): no Claude Code start, no network. */
  authStatus(): Promise<AuthStatusInfo> {
    return this.accounts.status.current();
  }

  /** `auth/status_update`: `listener` hears each change of the status from now on. */
  watchAuthStatus(listener: (status: AuthStatusInfo) => Promise<void> | void): Promise<void> {
    return this.accounts.status.watch(listener);
  }

  logout(): Promise<void> {
    return this.accounts.logout();
  }

  listProviders(): ProviderListing[] {
    return this.accounts.listProviders();
  }

  /** `providers/set` and a gateway login (accounts.ts). */
  setProvider(config: ProviderConfig): Promise<void> {
    return this.accounts.setProvider(config);
  }

  disableProvider(): Promise<void> {
    return this.accounts.disableProvider();
  }
}
