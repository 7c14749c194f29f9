import { randomUUID } from "node:crypto";
import { stat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import {
  agent,
  methods,
  type AgentApp,
  type AgentContext,
  type ClientCapabilities,
  type NewSessionRequest,
  type NewSessionResponse,
} from "@agentclientprotocol/sdk";
import { initializeResponse } from "./acp/capabilities.js";
import { withRequestErrors } from "./acp/errors.js";
import { SessionClient } from "./acp/session-client.js";
import type { StartClaudeQuery } from "./claude/query.js";
import { InvalidParamsError } from "./errors.js";
import { log } from "./logger.js";
import { mcpServersToClaude } from "./session/mcp-servers.js";
import { SessionRegistry } from "./session/registry.js";
import { Session } from "./session/session.js";
import { loadAdapterSettings } from "./session/settings.js";

export interface AgentDependencies {
  /** Starts one Claude Code process; tests pass a scripted fake. */
  startQuery: StartClaudeQuery;
  /** Finds the Claude Code binary, or throws saying what to install. */
  resolveExecutable: () => string;
  /** Environment of the Claude Code processes. */
  env: NodeJS.ProcessEnv;
}

/** cwd must be an absolute path to an existing directory. */
async function requireWorkingDirectory(cwd: string): Promise<void> {
  if (!isAbsolute(cwd)) throw new InvalidParamsError("cwd must be an absolute path.", { cwd });
  const info = await stat(cwd).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new InvalidParamsError("cwd must be an existing directory.", { cwd });
  }
}

/**
 * The ACP app: a thin dispatcher. Each handler looks the session up once and
 * delegates; the logic lives in the session.
 */
export function createAgent(deps: AgentDependencies): AgentApp {
  const sessions = new SessionRegistry();
  let clientCapabilities: ClientCapabilities = {};

  async function newSession(
    params: NewSessionRequest,
    client: AgentContext,
  ): Promise<NewSessionResponse> {
    await requireWorkingDirectory(params.cwd);
    const mcpServers = mcpServersToClaude(params.mcpServers);
    const executable = deps.resolveExecutable();
    const id = randomUUID();
    const session = new Session({
      id,
      cwd: params.cwd,
      client: new SessionClient(client, id, clientCapabilities),
      startQuery: deps.startQuery,
      executable,
      env: { ...deps.env },
      mcpServers,
      settings: await loadAdapterSettings(params.cwd, deps.env),
    });
    await session.start();
    sessions.add(session);
    // After the response, so the client knows the session the commands belong to.
    setTimeout(() => void session.announceCommands().catch(() => undefined), 0);
    return { sessionId: id, modes: session.modes(), configOptions: session.configOptions() };
  }

  return agent({ name: "claude-agent-acp" })
    .onConnect((connection) => {
      connection.signal.addEventListener("abort", () => {
        for (const session of sessions.all()) session.close();
        log.info("client disconnected; sessions closed");
      });
    })
    .onRequest(methods.agent.initialize, ({ params }) => {
      clientCapabilities = params.clientCapabilities ?? {};
      return initializeResponse(params);
    })
    .onRequest(
      methods.agent.session.new,
      withRequestErrors(({ params, client }) => newSession(params, client)),
    )
    .onRequest(
      methods.agent.session.prompt,
      withRequestErrors(({ params, signal }) => {
        const session = sessions.require(params.sessionId);
        signal.addEventListener("abort", () => session.cancel(), { once: true });
        return session.prompt(params.prompt);
      }),
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
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.find(params.sessionId)?.cancel();
    });
}
