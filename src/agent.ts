import { randomUUID } from "node:crypto";
import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute } from "node:path";
import {
  agent,
  methods,
  type AgentApp,
  type AgentContext,
  type McpServer,
} from "@agentclientprotocol/sdk";
import { initializeResponse } from "./acp/capabilities.js";
import { withRequestErrors } from "./acp/errors.js";
import { forkSessionParams, FORK_METHOD } from "./acp/fork.js";
import { sessionClient } from "./acp/child-sessions.js";
import {
  withUnstableCapabilities,
  type AgentClientCapabilities,
  type UnstableClientCapabilities,
} from "./acp/unstable-capabilities.js";
import { sessionMetaOptions } from "./acp/session-meta.js";
import { STEERING_METHOD, steeringParams } from "./acp/steering.js";
import type { ClaudeQueryOptions, StartClaudeQuery } from "./claude/query.js";
import type { ClaudeTranscripts } from "./claude/transcripts.js";
import { isLoginMethod } from "./acp/auth.js";
import { claudeLoggedIn, claudeLogout } from "./claude/auth-commands.js";
import { AuthRequiredError, echoed, InvalidParamsError, SessionNotFoundError } from "./errors.js";
import { log } from "./logger.js";
import { listPage } from "./session/history.js";
import { hostQueryOptions } from "./session/claude-env.js";
import { conversationChain } from "./session/continuations.js";
import { mcpServersToClaude } from "./session/mcp-servers.js";
import { ModelCache, modelCachePath } from "./session/model-cache.js";
import { ClaudeProcesses } from "./session/processes.js";
import { SessionRegistry } from "./session/registry.js";
import { savedConversations, savedIn } from "./session/saved.js";
import { Session } from "./session/session.js";
import { loadAdapterSettings } from "./session/settings.js";

export interface AgentDependencies {
  /** Starts one Claude Code process; tests pass a scripted fake. */
  startQuery: StartClaudeQuery;
  /** Claude Code's saved conversations; tests pass a fake. */
  transcripts: ClaudeTranscripts;
  /** Finds the Claude Code binary, or throws saying what to install. */
  resolveExecutable: () => string;
  /** Environment of the Claude Code processes. */
  env: NodeJS.ProcessEnv;
  /** Prepares a Claude Code process for the next session/new (a prewarmed spare). */
  warmUp?: (template: ClaudeQueryOptions) => void;
}

/** Idle Claude processes are closed after this long unless CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS says otherwise. */
export const DEFAULT_IDLE_TIMEOUT_MS = 15 * 60_000;

function idleTimeoutMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS);
  return env.CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS !== undefined && Number.isFinite(value) && value >= 0
    ? value
    : DEFAULT_IDLE_TIMEOUT_MS;
}

/** A directory the session works in: an absolute path to an existing directory. */
async function requireDirectory(path: string, what: string): Promise<void> {
  if (!isAbsolute(path))
    throw new InvalidParamsError(`${what} must be an absolute path.`, { path });
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new InvalidParamsError(`${what} must be an existing directory.`, { path });
  }
}

/** What new, load, resume and fork have in common. */
interface OpenParams {
  cwd: string;
  mcpServers?: McpServer[] | null;
  additionalDirectories?: string[] | null;
}

/**
 * The ACP app: a thin dispatcher. Each handler looks the session up once and
 * delegates; the logic lives in the session.
 */
export function createAgent(deps: AgentDependencies): AgentApp {
  const sessions = new SessionRegistry();
  const processes = new ClaudeProcesses();
  const models = new ModelCache(modelCachePath(deps.env), deps.env);
  /** Ids closed on this connection: closing twice is harmless. */
  const closed = new Set<string>();
  let clientCapabilities: AgentClientCapabilities = {};
  let unstableCapabilities: UnstableClientCapabilities = {};

  /**
   * Validates everything first, then starts Claude Code without waiting for it to be ready
   * (session.start()); a session whose start fails at once is closed and never
   * registered, so nothing half-created is left behind.
   */
  async function open(
    params: OpenParams,
    client: AgentContext,
    id: string,
    options: { conversations?: readonly string[]; replay?: boolean } = {},
  ): Promise<Session> {
    await requireDirectory(params.cwd, "cwd");
    const additionalDirectories = params.additionalDirectories ?? [];
    for (const dir of additionalDirectories) await requireDirectory(dir, "additionalDirectories");
    const mcpServers = mcpServersToClaude(params.mcpServers ?? []);
    const executable = deps.resolveExecutable();
    sessions.remove(id)?.close();
    await processes.exited(id); // one id, one Claude Code process: the previous one goes first
    const session = new Session({
      id,
      cwd: params.cwd,
      client: sessionClient(client, id, clientCapabilities),
      startQuery: processes.starter(id, deps.startQuery),
      transcripts: deps.transcripts,
      executable,
      env: { ...deps.env },
      mcpServers,
      additionalDirectories,
      settings: await loadAdapterSettings(params.cwd, deps.env),
      idleTimeoutMs: idleTimeoutMs(deps.env),
      models: await models.lookup(executable),
      ...(options.conversations?.length
        ? { resume: options.conversations.at(-1), earlier: options.conversations.slice(0, -1) }
        : {}),
    });
    try {
      await session.start();
      if (options.replay) await session.replay();
    } catch (error) {
      session.close();
      throw error;
    }
    sessions.add(session);
    closed.delete(session.id);
    // After the response, so the client knows the session the commands and title belong to.
    setTimeout(() => void session.announce().catch(() => undefined), 0);
    return session;
  }

  /** A saved session of the cwd (see session/saved.ts): its conversations, oldest first. */
  async function saved(
    params: { sessionId: string; cwd: string; _meta?: unknown },
    options = sessionMetaOptions(params._meta),
  ): Promise<string[]> {
    await requireDirectory(params.cwd, "cwd");
    return savedConversations(deps.transcripts, params.sessionId, params.cwd, options);
  }

  /** Starts a spare Claude Code process now that the client's capabilities are known. */
  function warmUp(): void {
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
        client: clientCapabilities,
      }),
      cwd: homedir(),
      canUseTool: () => Promise.resolve({ behavior: "deny", message: "unused" }),
    });
  }

  const state = (session: Session) => ({
    modes: session.modes(),
    configOptions: session.configOptions(),
  });

  return withUnstableCapabilities(
    agent({ name: "claude-agent-acp" }),
    (capabilities) => (unstableCapabilities = capabilities),
  )
    .onConnect((connection) => {
      connection.signal.addEventListener("abort", () => {
        sessions.closeAll();
        log.info("client disconnected; sessions closed");
      });
    })
    .onRequest(methods.agent.initialize, ({ params }) => {
      clientCapabilities = { ...params.clientCapabilities, ...unstableCapabilities };
      warmUp();
      return initializeResponse(params);
    })
    .onRequest(
      methods.agent.session.new,
      withRequestErrors(async ({ params, client }) => {
        const session = await open(params, client, randomUUID());
        return { sessionId: session.id, ...state(session) };
      }),
    )
    .onRequest(
      methods.agent.session.load,
      withRequestErrors(({ params, client }) =>
        sessions.exclusive(params.sessionId, async () => {
          const conversations = await saved(params);
          const session = await open(params, client, params.sessionId, {
            conversations,
            replay: true,
          });
          return state(session);
        }),
      ),
    )
    .onRequest(
      methods.agent.session.resume,
      withRequestErrors(({ params, client }) =>
        sessions.exclusive(params.sessionId, async () => {
          const conversations = await saved(params);
          const session = await open(params, client, params.sessionId, { conversations });
          return state(session);
        }),
      ),
    )
    .onRequest(
      FORK_METHOD,
      forkSessionParams,
      withRequestErrors(({ params, client }) =>
        sessions.exclusive(params.sessionId, async () => {
          // The fork continues from where the session is now (its latest conversation), and
          // may move to another cwd: it is then recorded there.
          const conversations = await saved(params, {
            includeWorktrees: false,
            allowCwdChange: true,
          });
          const forkedId = await deps.transcripts.fork(
            conversations.at(-1)!,
            params.cwd,
            params.cwd,
          );
          const session = await open(params, client, forkedId, { conversations: [forkedId] });
          return { sessionId: session.id, ...state(session) };
        }),
      ),
    )
    .onRequest(
      methods.agent.session.list,
      withRequestErrors(async ({ params }) => {
        if (params.cwd) await requireDirectory(params.cwd, "cwd");
        const { includeWorktrees } = sessionMetaOptions(params._meta);
        return listPage(deps.transcripts, { ...params, includeWorktrees });
      }),
    )
    .onRequest(
      methods.agent.session.close,
      withRequestErrors(({ params }) =>
        sessions.exclusive(params.sessionId, () => {
          const session = sessions.remove(params.sessionId);
          if (!session && !closed.has(params.sessionId)) {
            throw new SessionNotFoundError(params.sessionId);
          }
          session?.close();
          closed.add(params.sessionId);
          return Promise.resolve({});
        }),
      ),
    )
    .onRequest(
      methods.agent.session.delete,
      withRequestErrors(({ params }) =>
        sessions.exclusive(params.sessionId, async () => {
          const session = sessions.remove(params.sessionId);
          session?.close();
          const conversations = await conversationChain(
            params.sessionId,
            savedIn(deps.transcripts),
          );
          const deleted = await deps.transcripts.delete(params.sessionId).then(
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
          if (!deleted && !session) throw new SessionNotFoundError(params.sessionId);
          closed.add(params.sessionId);
          return {};
        }),
      ),
    )
    .onRequest(
      methods.agent.session.prompt,
      withRequestErrors(({ params, signal }) => {
        return sessions.require(params.sessionId).prompt(params.prompt, signal);
      }),
    )
    .onRequest(
      STEERING_METHOD,
      steeringParams,
      withRequestErrors(({ params }) =>
        Promise.resolve(
          sessions.require(params.sessionId).steer(params.prompt, params.idleBehavior),
        ),
      ),
    )
    .onRequest(
      methods.agent.session.setMode,
      withRequestErrors(async ({ params }) => {
        await sessions.require(params.sessionId).setMode(params.modeId);
        return {};
      }),
    )
    .onRequest(
      methods.agent.session.setConfigOption,
      withRequestErrors(async ({ params }) => ({
        configOptions: await sessions
          .require(params.sessionId)
          .setConfigOption(params.configId, params.value),
      })),
    )
    .onRequest(
      methods.agent.authenticate,
      withRequestErrors(async ({ params }) => {
        // Each method is a login the client ran in a terminal; here it is only checked.
        if (!isLoginMethod(params.methodId)) {
          throw new InvalidParamsError(`Unknown auth method "${echoed(params.methodId)}".`, {
            methodId: params.methodId,
          });
        }
        if (!(await claudeLoggedIn(deps.resolveExecutable(), deps.env))) {
          throw new AuthRequiredError("Claude Code is not logged in yet");
        }
        return {};
      }),
    )
    .onRequest(
      methods.agent.logout,
      withRequestErrors(async () => {
        await claudeLogout(deps.resolveExecutable(), deps.env);
        return {};
      }),
    )
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.cancel(params.sessionId);
    });
}
