import type { ListSessionsResponse } from "@agentclientprotocol/sdk";
import { sessionMetaOptions } from "../acp/session-meta.js";
import { InvalidParamsError, SessionNotFoundError } from "../errors.js";
import { log } from "../logger.js";
import { requireDirectory } from "../session/configuration/directories.js";
import { conversationChain } from "../session/lifecycle/continuations.js";
import {
  archiveFilter,
  listedRow,
  SessionHistory,
  type ListedPage,
  type ListedSession,
  type OpenState,
} from "../session/lifecycle/history.js";
import type { SavedPrompts } from "../session/lifecycle/saved-prompts.js";
import { conversationsToChange, savedIn } from "../session/lifecycle/saved.js";
import type { SessionRegistry } from "../session/registry.js";
import type { Session } from "../session/session.js";
import { clientTitle } from "../session/stream/titles.js";
import type { ClosedSessions } from "./closed-sessions.js";
import type { AgentDependencies } from "./dependencies.js";

/** What `session/list` names: ACP's parameters. */
export interface ListParams {
  cwd?: string | null;
  cursor?: string | null;
  archived?: string | null;
  _meta?: unknown;
}

/**
 * Saved sessions, as Claude Code keeps them: the list a client pages through, and a
 * session's deletion, title and archive mark, written where Claude Code's own listing
 * (`claude --resume`) reads them.
 */
export class SavedSessions {
  private readonly history: SessionHistory;

  constructor(
    private readonly deps: Pick<AgentDependencies, "transcripts">,
    private readonly sessions: SessionRegistry,
    /** The system prompts kept for a later load: a deleted session's goes with it. */
    private readonly prompts: SavedPrompts,
    private readonly closed: ClosedSessions,
  ) {
    this.history = new SessionHistory(deps.transcripts, this.openState);
  }

  /** The state of a session open here (a row shows it). */
  readonly openState: OpenState = (id) => this.sessions.find(id)?.state;

  /** `session/list`: a page of ACP's rows. */
  async list(params: ListParams): Promise<ListSessionsResponse> {
    const { sessions, ...page } = await this.page(params);
    return { ...page, sessions: sessions.map(({ agentWorktree: _, ...row }) => row) };
  }

  /**
   * A page of the listing, its rows with what an extension shows besides (listedRow);
   * `includeWorktrees` and `limit` as an extension asks, else as `_meta.claudeCode` does.
   */
  async page(
    params: ListParams,
    options: { includeWorktrees?: boolean; limit?: number } = {},
  ): Promise<ListedPage> {
    const archived = archiveFilter(params.archived);
    if (params.cwd) await requireDirectory(params.cwd, "cwd");
    const includeWorktrees =
      options.includeWorktrees ?? sessionMetaOptions(params._meta).includeWorktrees;
    const limit = options.limit;
    return this.history.page({
      ...params,
      includeWorktrees,
      archived,
      ...(limit !== undefined ? { limit } : {}),
    });
  }

  /** The rows of these sessions, wherever they were saved, in the order asked; unknown ids left out. */
  async rows(sessionIds: readonly string[]): Promise<ListedSession[]> {
    const { transcripts } = this.deps;
    const saved = await transcripts.find(sessionIds);
    const rows = await transcripts.rows(saved);
    return rows.flatMap((row) => (row && listedRow(row, this.openState)) ?? []);
  }

  delete(sessionId: string): Promise<void> {
    const { deps, sessions } = this;
    return sessions.exclusive(sessionId, async () => {
      const session = sessions.remove(sessionId);
      session?.close();
      const conversations = await conversationChain(sessionId, savedIn(deps.transcripts));
      const deleted = await deps.transcripts.delete(sessionId).then(
        () => true,
        () => false,
      );
      // Plan handoffs' conversations go with the session they continue.
      for (const conversation of conversations.slice(1)) {
        await deps.transcripts.delete(conversation).catch((error: unknown) => {
          log.warn(`could not delete conversation ${conversation}`, error);
        });
      }
      // A session that never saved a conversation has nothing on disk to delete.
      if (!deleted && !session) throw new SessionNotFoundError(sessionId);
      await this.prompts.set(sessionId, undefined);
      this.closed.gone(sessionId);
    });
  }

  /**
   * `session/status`, without opening anything: `open` for a session held here (its Claude
   * Code process may be released while idle), `saved` for one Claude Code saved in any
   * directory (as set_title finds it), else -32002.
   */
  async status(sessionId: string): Promise<"open" | "saved"> {
    if (this.sessions.find(sessionId)) return "open";
    if (await savedIn(this.deps.transcripts)(sessionId)) return "saved";
    throw new SessionNotFoundError(sessionId);
  }

  /**
   * `session/set_title`: the title is saved as Claude Code's `/rename` saves it, so the
   * listing, `claude --resume` and a later load show it; an open session publishes it.
   */
  setTitle(sessionId: string, title: string, meta?: unknown): Promise<string> {
    const stored = clientTitle(title);
    if (!stored) throw new InvalidParamsError("The title has no visible characters.");
    return this.sessions.exclusive(sessionId, async () => {
      const open = this.sessions.find(sessionId);
      for (const conversation of await this.toChange(sessionId, "title", open, meta)) {
        await this.deps.transcripts.rename(conversation, stored);
      }
      await open?.titleChanged();
      return stored;
    });
  }

  /**
   * `session/archive` and `session/unarchive`, with Claude Code's own mark, so its listing
   * (`claude --resume`) shows the same. Archiving an open session closes it first, as ACP
   * asks; unarchiving opens nothing. A prompt sent later unarchives it (Claude Code's rule).
   */
  setArchived(sessionId: string, archived: boolean, meta?: unknown): Promise<void> {
    return this.sessions.exclusive(sessionId, async () => {
      const open = this.sessions.find(sessionId);
      const conversations = await this.toChange(sessionId, "archive", open, meta);
      if (archived && open) this.closed.closeNow(sessionId);
      for (const conversation of conversations) {
        await this.deps.transcripts.archive(conversation, archived);
      }
    });
  }

  /** The conversations a title or archive mark goes to (lifecycle/saved.ts). */
  private toChange(sessionId: string, change: string, open: Session | undefined, meta: unknown) {
    const options = sessionMetaOptions(meta);
    return conversationsToChange(this.deps.transcripts, sessionId, change, open, options);
  }
}
