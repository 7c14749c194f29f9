import { randomUUID } from "node:crypto";
import { homedir } from "node:os";
import type { McpServer } from "@agentclientprotocol/sdk";
import { forkPoint } from "../claude/cuts/fork-point.js";
import type { ClaudeTranscripts } from "../claude/transcripts.js";
import { InvalidParamsError } from "../errors.js";
import type { RequestedSystemPrompt } from "../acp/session-params.js";
import { loadReplayEnd } from "../acp/air/extension.js";
import { sessionMetaOptions } from "../acp/session-meta.js";
import type { AgentClientCapabilities } from "../acp/unstable-capabilities.js";
import { hostQueryOptions } from "../session/configuration/claude-env.js";
import { clientSetup, type ClientSetup } from "../session/configuration/client-setup.js";
import { requireDirectory } from "../session/configuration/directories.js";
import { ModelCache, modelCachePath } from "../session/configuration/model-cache.js";
import { type Prepared, prepareSession } from "../session/lifecycle/prepare.js";
import { ClaudeProcesses } from "../session/lifecycle/processes.js";
import type { SavedPrompts } from "../session/lifecycle/saved-prompts.js";
import {
  type ConversationReader,
  readingAhead,
  savedConversations,
} from "../session/lifecycle/saved.js";
import type { SessionRegistry } from "../session/registry.js";
import { Session } from "../session/session.js";
import type { Accounts } from "./accounts.js";
import type { SessionTrust } from "./session-trust.js";
import type { TrustAssessment } from "./workspace-trust.js";
import type { ClosedSessions } from "./closed-sessions.js";
import type { SessionRewinds } from "./rewinds.js";
import type { AgentDependencies, SessionClientFactory } from "./dependencies.js";

/** Idle Claude processes are closed after this long unless CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS says otherwise. */
export const DEFAULT_IDLE_TIMEOUT_MS = 15 * 60_000;

function idleTimeoutMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS);
  return env.CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS !== undefined && Number.isFinite(value) && value >= 0
    ? value
    : DEFAULT_IDLE_TIMEOUT_MS;
}

/** What new, load, resume and fork have in common. */
export interface OpenParams {
  cwd: string;
  mcpServers?: McpServer[] | null;
  additionalDirectories?: string[] | null;
  /** The RFD's system prompt (session-params.ts); checked before anything opens. */
  systemPrompt?: RequestedSystemPrompt | null;
  /** Options of this agent's and of Claude Code's (`claudeCode.options`, `systemPrompt`, ...). */
  _meta?: Record<string, unknown> | null;
}

/** A saved session to open again (load, resume, fork). */
export interface SavedSessionParams extends OpenParams {
  sessionId: string;
}

/** A fork, at the message a chunk's `messageId` named (the fork-at-message RFD) or at the end. */
export interface ForkParams extends SavedSessionParams {
  messageId?: string | null;
}

/** What opening a session shares with the rest of the core (agent-core.ts wires it). */
export interface OpeningContext {
  deps: AgentDependencies;
  sessionClient: SessionClientFactory;
  sessions: SessionRegistry;
  /** The system prompts kept for a later load, resume or fork. */
  prompts: SavedPrompts;
  /** The provider a session starts for. */
  accounts: Accounts;
  closed: ClosedSessions;
  /** The trust of the sessions' folders. */
  trust: SessionTrust;
  /** Where a rewound conversation resumes (rewinds.ts). */
  rewinds: SessionRewinds;
}

/**
 * Opening sessions: a new one, a saved one again (load, resume) and a fork, each one
 * Claude Code process per id; and the spare process warmed for the next new session.
 */
export class SessionOpening {
  private readonly processes = new ClaudeProcesses();
  private readonly models: ModelCache;
  private clientCapabilities: AgentClientCapabilities = {};

  constructor(private readonly context: OpeningContext) {
    this.models = new ModelCache(modelCachePath(context.deps.env), context.deps.env);
  }

  /** The client's capabilities are known (initialize): a spare process can start. */
  initialize(capabilities: AgentClientCapabilities): void {
    this.clientCapabilities = capabilities;
    this.warmUp();
  }

  newSession(params: OpenParams): Promise<Session> {
    return this.open(params, this.context.deps.newSessionId?.() ?? randomUUID(), {
      setup: clientSetup(params),
    });
  }

  /**
   * A saved session, opened again: `replay` sends its conversation before it is answered
   * (session/load; v2's resume from the start).
   */
  resume(params: SavedSessionParams, options: { replay: boolean }): Promise<Session> {
    const { deps, sessions } = this.context;
    const setup = clientSetup(params);
    return sessions.exclusive(params.sessionId, async () => {
      // While the session is checked, its transcript is read and the rest of what the
      // session needs: the replay waits for them all. The check's refusal comes first.
      const reader = options.replay
        ? readingAhead(deps.transcripts, params.sessionId, params.cwd)
        : undefined;
      const prepared = this.prepare(params, setup, params.sessionId);
      prepared.catch(() => undefined);
      const conversations = await this.saved(params);
      return this.open(params, params.sessionId, {
        setup,
        conversations,
        ...(reader ? { replay: reader } : {}),
        promptOf: params.sessionId,
        prepared,
      });
    });
  }

  fork(params: ForkParams): Promise<Session> {
    const { deps, sessions } = this.context;
    const setup = clientSetup(params);
    return sessions.exclusive(params.sessionId, async () => {
      // The fork continues from where the session is now (its latest conversation), or from
      // the message named, and may move to another cwd: it is then recorded there.
      const conversations = await this.saved(params, {
        includeWorktrees: false,
        allowCwdChange: true,
      });
      const { conversation, upTo } = params.messageId
        ? await forkAt(deps.transcripts, conversations, params.cwd, params.messageId)
        : { conversation: conversations.at(-1)!, upTo: undefined };
      const forkedId = await deps.transcripts.fork(conversation, params.cwd, params.cwd, upTo);
      return this.open(params, forkedId, {
        setup,
        conversations: [forkedId],
        promptOf: params.sessionId,
      });
    });
  }

  /** Starts a spare Claude Code process now that the client's capabilities are known. */
  warmUp(): void {
    const { deps, accounts } = this.context;
    if (!deps.warmUp) return;
    let executable: string;
    try {
      executable = deps.resolveExecutable();
    } catch {
      return; // session/new will report what to install
    }
    deps.warmUp({
      ...hostQueryOptions({
        executable,
        env: deps.env,
        provider: accounts.provider(),
        client: this.clientCapabilities,
      }),
      cwd: homedir(),
      canUseTool: () => Promise.resolve({ behavior: "deny", message: "unused" }),
    });
  }

  /** What a session reads and checks before it is created (lifecycle/prepare.ts). */
  private prepare(
    params: OpenParams,
    setup: ClientSetup,
    promptOf: string | undefined,
  ): Promise<Prepared<TrustAssessment>> {
    const { deps, prompts, accounts, trust } = this.context;
    const sources = {
      env: deps.env,
      resolveExecutable: () => deps.resolveExecutable(),
      prompts,
      models: this.models,
      providerKey: accounts.providerKey(),
      trust: (cwd: string) => trust.assess(cwd),
    };
    return prepareSession(sources, params, setup, promptOf);
  }

  /**
   * Validates everything first, then starts Claude Code without waiting for it to be ready
   * (session.start()); a session whose start fails at once is closed and never
   * registered, so nothing half-created is left behind.
   */
  private async open(
    params: OpenParams,
    id: string,
    options: {
      /** What the request configures, read (and refused if it must be) before anything else. */
      setup: ClientSetup;
      conversations?: readonly string[];
      /** Replays the saved conversations (from this reader) before it answers. */
      replay?: ConversationReader;
      /** The session whose saved system prompt applies when the request gives none. */
      promptOf?: string;
      /** prepare()'s work, begun already. */
      prepared?: Promise<Prepared<TrustAssessment>>;
    },
  ): Promise<Session> {
    const { deps, sessions, accounts } = this.context;
    const { processes } = this;
    const { setup } = options;
    const prepared = await (options.prepared ?? this.prepare(params, setup, options.promptOf));
    const { additionalDirectories, mcpServers, executable, systemPrompt, settings } = prepared;
    sessions.remove(id)?.close();
    await processes.exited(id); // one id, one Claude Code process: the previous one goes first
    const resume = options.conversations?.at(-1);
    const resumeAt = resume && (await this.context.rewinds.resumeAt(resume, params.cwd));
    const session = new Session({
      id,
      cwd: params.cwd,
      client: this.context.sessionClient(id, this.clientCapabilities),
      startQuery: processes.starter(id, deps.startQuery),
      transcripts: deps.transcripts,
      executable,
      env: { ...deps.env },
      mcpServers,
      additionalDirectories,
      settings,
      idleTimeoutMs: idleTimeoutMs(deps.env),
      models: prepared.models,
      setup: { ...prepared.setup, ...(systemPrompt !== undefined ? { systemPrompt } : {}) },
      provider: accounts.provider(),
      providerModels: accounts.providerModels(),
      projectContext: prepared.trust.loadsProjectContext,
      ...(resume ? { resume, earlier: options.conversations!.slice(0, -1) } : {}),
      ...(resumeAt ? { resumeAt } : {}),
    });
    try {
      // The conversation a load replays is what the user waits to see: Claude Code starts
      // after it, since starting beside it slows both on a small machine.
      if (options.replay) {
        await session.replay(options.replay);
        const end = loadReplayEnd(this.clientCapabilities);
        if (end) await session.client.updateSessionInfo(end);
      }
      await session.start();
    } catch (error) {
      session.close();
      throw error;
    }
    // Kept for a load or resume that gives none, and for forks.
    if (
      systemPrompt !== undefined &&
      (setup.systemPrompt !== undefined || options.promptOf !== session.id)
    ) {
      await this.context.prompts.set(session.id, systemPrompt);
    }
    sessions.add(session);
    this.context.trust.opened(session, prepared.trust);
    this.context.closed.opened(session.id);
    // After the response, so the client knows the session the commands and title belong to.
    setTimeout(() => void session.announce().catch(() => undefined), 0);
    return session;
  }

  /** A saved session of the cwd (session/lifecycle/saved.ts): its conversations, oldest first. */
  private async saved(
    params: { sessionId: string; cwd: string; _meta?: unknown },
    options = sessionMetaOptions(params._meta),
  ): Promise<string[]> {
    await requireDirectory(params.cwd, "cwd");
    return savedConversations(this.context.deps.transcripts, params.sessionId, params.cwd, options);
  }
}

/**
 * The conversation of a session (its latest first) that holds the message a client names,
 * and where a fork at it ends (fork-point.ts); invalid params when none holds it.
 */
async function forkAt(
  transcripts: ClaudeTranscripts,
  conversations: readonly string[],
  cwd: string,
  messageId: string,
): Promise<{ conversation: string; upTo: string }> {
  for (const conversation of [...conversations].reverse()) {
    const upTo = forkPoint(await transcripts.messages(conversation, cwd), messageId);
    if (upTo) return { conversation, upTo };
  }
  throw new InvalidParamsError("The session has no message with this messageId.", { messageId });
}
