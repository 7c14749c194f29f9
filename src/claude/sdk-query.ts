import { query, type HookCallback, type Options, type Query } from "@anthropic-ai/claude-agent-sdk";
import { log } from "../logger.js";
import { AsyncQueue } from "../util/async-queue.js";
import { deferred } from "../util/deferred.js";
import { ClaudeProcess } from "./child-process.js";
import { authenticateMcpServer } from "./mcp-auth.js";
import type { ClaudeQuery, ClaudeQueryOptions, OnSubagentStart } from "./query.js";
import type { SDKUserMessage } from "./types.js";

/** Identifies this adapter in Claude Code's User-Agent. */
const CLIENT_APP = "claude-agent-acp";

/**
 * The options a Claude Code process is started with and keeps for life (everything a
 * prewarmed spare must agree on): executable, environment, tools, MCP servers, prompt.
 */
export function hostOptions(
  options: ClaudeQueryOptions,
  claudeProcess?: ClaudeProcess,
  canUseTool = options.canUseTool,
  onElicitation = options.onElicitation,
  onSubagentStart = options.onSubagentStart,
): Options {
  return {
    mcpServers: options.mcpServers ?? {},
    // Stdio/http/sse servers ride in the initialize request, not on the command line,
    // so their env and headers stay out of `ps`.
    mcpServersDelivery: "initialize",
    disallowedTools: options.disallowedTools ?? [],
    ...(options.allowBypass ? { allowDangerouslySkipPermissions: true } : {}),
    canUseTool,
    ...(onElicitation
      ? { onElicitation: (request, { signal }) => onElicitation(request, signal) }
      : {}),
    ...(onSubagentStart
      ? { hooks: { SubagentStart: [{ hooks: [subagentStartHook(onSubagentStart)] }] } }
      : {}),
    // Behave as Claude Code does in a terminal: its prompt, its settings files.
    systemPrompt: { type: "preset", preset: "claude_code" },
    settingSources: ["user", "project", "local"],
    includePartialMessages: true,
    ...(options.forwardSubagentText ? { forwardSubagentText: true } : {}),
    pathToClaudeCodeExecutable: options.executable,
    env: { ...options.env, CLAUDE_AGENT_SDK_CLIENT_APP: CLIENT_APP },
    stderr: (data) => log.debug(`claude: ${data.trimEnd()}`),
    // The agent spawns the process itself, to be able to end it when it hangs.
    ...(claudeProcess ? { spawnClaudeCodeProcess: claudeProcess.spawn } : {}),
  };
}

/** Claude Code's SubagentStart hook: its input names the subagent's working directory. */
function subagentStartHook(onSubagentStart: OnSubagentStart): HookCallback {
  return async (input) => {
    if (input.hook_event_name !== "SubagentStart") return {};
    await onSubagentStart(input.agent_id, input.cwd).catch((error: unknown) =>
      log.warn(`subagent ${input.agent_id}: could not handle its start`, error),
    );
    return {};
  };
}

/** Host options plus what belongs to one session. */
export function sdkOptions(options: ClaudeQueryOptions, claudeProcess: ClaudeProcess): Options {
  return {
    ...hostOptions(options, claudeProcess),
    cwd: options.cwd,
    ...(options.sessionId ? { sessionId: options.sessionId } : {}),
    ...(options.resume ? { resume: options.resume } : {}),
    additionalDirectories: options.additionalDirectories ?? [],
    permissionMode: options.permissionMode ?? "default",
    ...(options.model ? { model: options.model } : {}),
    ...(options.effort ? { effort: options.effort } : {}),
    ...(options.flagSettings && Object.keys(options.flagSettings).length
      ? { settings: options.flagSettings }
      : {}),
  };
}

/** A ClaudeQuery over one SDK Query and the input queue that feeds it. */
export function wrapQuery(
  q: Query,
  input: AsyncQueue<SDKUserMessage>,
  sessionId: Promise<string>,
  claudeProcess: ClaudeProcess,
): ClaudeQuery {
  let closed = false;
  const exit = deferred<void>();
  return {
    exited: exit.promise,
    sessionId,
    messages: q,
    send: (message) => input.push(message),
    interrupt: async () => {
      try {
        await q.interrupt();
      } catch (error) {
        // Closed meanwhile (a session closed or deleted mid-turn): nothing left to stop.
        if (!closed) throw error;
      }
    },
    stopTask: (taskId) => q.stopTask(taskId),
    setPermissionMode: async (mode) => {
      await q.setPermissionMode(mode);
    },
    setModel: (model) => q.setModel(model),
    applyFlagSettings: (settings) => q.applyFlagSettings(settings),
    probe: async () => {
      await q.mcpServerStatus();
    },
    mcpServerStatus: () => q.mcpServerStatus(),
    reconnectMcpServer: (name) => q.reconnectMcpServer(name),
    toggleMcpServer: (name, enabled) => q.toggleMcpServer(name, enabled),
    authenticateMcpServer: (name) => authenticateMcpServer(q, name),
    currentModel: async () => (await q.getContextUsage({ detail: "summary" })).model,
    generateTitle: (description) => generateSessionTitle(q, description),
    terminate: () => claudeProcess.terminate(),
    initialization: async () => {
      const result = await q.initializationResult();
      return { commands: result.commands, models: result.models };
    },
    close: () => {
      if (closed) return;
      closed = true;
      input.close();
      q.close();
      // The SDK's return() waits for the process to exit (bounded) after a close.
      q.return(undefined).then(
        () => exit.resolve(),
        () => exit.resolve(),
      );
    },
  };
}

/** The SDK's title generation control request (`generate_session_title`). */
type GenerateSessionTitle = (
  description: string,
  options?: { persist?: boolean },
) => Promise<string>;

/**
 * The SDK's Query answers `generateSessionTitle` at run time, but its type declarations do
 * not name it yet: the method is looked up, and a Query without it titles nothing.
 */
async function generateSessionTitle(q: Query, description: string): Promise<string> {
  if (!("generateSessionTitle" in q) || typeof q.generateSessionTitle !== "function") {
    throw new Error("this Claude Agent SDK cannot generate session titles");
  }
  const generate = q.generateSessionTitle as GenerateSessionTitle;
  return generate.call(q, description, { persist: true });
}

/** A new Claude Code process in streaming-input mode. */
export function startColdQuery(options: ClaudeQueryOptions): ClaudeQuery {
  const input = new AsyncQueue<SDKUserMessage>();
  const claudeProcess = new ClaudeProcess();
  const q = query({ prompt: input, options: sdkOptions(options, claudeProcess) });
  const id = options.resume ?? options.sessionId;
  const sessionId = id
    ? Promise.resolve(id)
    : Promise.reject(new Error("a Claude query needs a session id or a session to resume"));
  sessionId.catch(() => undefined);
  return wrapQuery(q, input, sessionId, claudeProcess);
}
