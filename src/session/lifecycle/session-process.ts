// A session's Claude Code process: the one that runs, starting one, and replacing it when the
// session goes idle, the provider or the folder's trust changes, or a plan handoff starts a
// new conversation. One
// private conversation at a time; a process started after the first prompt resumes it.
import type { ProviderLaunch } from "../../claude/provider-env.js";
import type { ClaudeQuery, ClaudeQueryOptions, StartClaudeQuery } from "../../claude/query.js";
import { log } from "../../logger.js";
import { continuationId } from "./continuations.js";

/** The conversation a process starts: a new one under this id, or the saved one it resumes. */
export type ProcessConversation = Pick<
  ClaudeQueryOptions,
  "sessionId" | "exactSessionId" | "resume" | "resumeSessionAt" | "resumeDropsTurn"
>;

/** What the process needs of its session. */
export interface SessionProcessHost {
  /** For the log. */
  id(): string;
  /** Everything a process for this conversation starts with, in this mode. */
  queryOptions(
    conversation: ProcessConversation,
    mode: string,
    provider: ProviderLaunch | undefined,
  ): ClaudeQueryOptions;
  startQuery: StartClaudeQuery;
  /** A process was started: the session reads its messages. */
  started(query: ClaudeQuery): void;
  /** Background work runs (a command, a subagent): it would die with the process. */
  backgroundBusy(): boolean;
}

export class SessionProcess {
  /** The process that runs, if one does. */
  current: ClaudeQuery | undefined;
  /** Claude's own id of the current private conversation (a plan handoff starts a new one). */
  conversation: string;
  /** True once a prompt reached Claude Code, so a restart resumes the transcript. */
  private hasTranscript: boolean;
  /**
   * The conversation was rewound to this entry: a process resumes it there, until a prompt
   * makes the transcript continue from it (rewind-marks.ts).
   */
  private resumeAt: { entry: string; dropsTurn?: string } | undefined;
  /** The provider the next process is started for. */
  private provider: ProviderLaunch | undefined;
  /**
   * What the process starts with changed since it started (the provider, the folder's trust):
   * the next turn starts a new one.
   */
  private stale = false;
  /** Processes whose end was handled (a hung one's is handled before it is gone). */
  private readonly ended = new WeakSet<ClaudeQuery>();
  /** Processes started on a new conversation, which is saved only once one of them starts. */
  private readonly fresh = new WeakSet<ClaudeQuery>();

  constructor(
    private readonly host: SessionProcessHost,
    conversation: { id: string; resume?: string | undefined; resumeAt?: string | undefined },
    provider: ProviderLaunch | undefined,
  ) {
    this.conversation = conversation.resume ?? conversation.id;
    this.hasTranscript = conversation.resume !== undefined;
    this.resumeAt = conversation.resumeAt ? { entry: conversation.resumeAt } : undefined;
    this.provider = provider;
  }

  /** A prompt reached Claude Code: a later process resumes the conversation. */
  promptSent(): void {
    this.hasTranscript = true;
    this.resumeAt = undefined;
  }

  /**
   * The conversation is rewound to `entry`: the process ends, and the next one resumes it
   * there, so that the model never sees what came after. `dropsTurn`: the prompt of the one
   * turn that drops, for Claude Code to check that nothing else goes with it.
   */
  rewind(entry: string, dropsTurn?: string): void {
    this.resumeAt = { entry, ...(dropsTurn ? { dropsTurn } : {}) };
    this.restart();
  }

  /** Claude Code refused to drop the turn (something else would go with it): it resumes whole. */
  dropRefused(): void {
    this.resumeAt = undefined;
  }

  /**
   * The process said it could not start: a new conversation it was to begin was not saved,
   * so the next process begins it again rather than resume what is not there.
   */
  startFailed(query: ClaudeQuery): void {
    if (this.fresh.has(query)) this.hasTranscript = false;
  }

  /** Whether this process's end is handled now: false if it was already. */
  endOnce(query: ClaudeQuery): boolean {
    if (this.ended.has(query)) return false;
    this.ended.add(query);
    return true;
  }

  start(mode: string, fresh: { exactSessionId?: boolean } = {}): ClaudeQuery {
    this.stale = false; // a process started now has what the session has now
    const conversation = this.hasTranscript
      ? { resume: this.conversation, ...resumedAt(this.resumeAt) }
      : { sessionId: this.conversation, ...fresh };
    const query = this.host.startQuery(this.host.queryOptions(conversation, mode, this.provider));
    if (!this.hasTranscript) this.fresh.add(query);
    this.current = query;
    this.host.started(query);
    return query;
  }

  /** The process a turn sends its prompt to: started now if there is none. */
  live(mode: string): ClaudeQuery {
    this.restartIfStale();
    return this.current ?? this.start(mode);
  }

  /** Ends the process; the next turn starts another, which resumes the conversation. */
  restart(): void {
    const query = this.current;
    this.current = undefined;
    query?.close();
  }

  /**
   * The client set another provider: the process is replaced when nothing needs it (`idle`),
   * or else when the next turn comes, once no background work keeps it.
   */
  reroute(provider: ProviderLaunch | undefined, idle: boolean): void {
    this.provider = provider;
    this.renew(idle);
  }

  /**
   * What the process starts with changed (the folder's trust, the provider): it is replaced
   * as `reroute` says.
   */
  renew(idle: boolean): void {
    this.stale = true;
    if (idle) this.restartIfStale();
  }

  private restartIfStale(): void {
    if (!this.stale || !this.current || this.host.backgroundBusy()) return;
    log.debug(
      `session ${this.host.id()}: its options changed; its Claude Code process is replaced`,
    );
    this.stale = false;
    this.restart();
  }

  /** Drops the private conversation for a new one (a plan handoff); the transcript stays. */
  newConversation(mode: string): ClaudeQuery {
    const old = this.current;
    this.conversation = continuationId(this.conversation);
    this.hasTranscript = false;
    const query = this.start(mode, { exactSessionId: true });
    old?.close();
    this.hasTranscript = true;
    return query;
  }
}

/** The options of a resume at a rewind's cut. */
function resumedAt(at: { entry: string; dropsTurn?: string } | undefined): ProcessConversation {
  if (!at) return {};
  return { resumeSessionAt: at.entry, ...(at.dropsTurn ? { resumeDropsTurn: at.dropsTurn } : {}) };
}
