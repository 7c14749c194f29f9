import { query, type Options } from "@anthropic-ai/claude-agent-sdk";
import { log } from "../logger.js";
import { AsyncQueue } from "../util/async-queue.js";
import type { ClaudeQuery, ClaudeQueryOptions } from "./query.js";
import type { SDKUserMessage } from "./types.js";

/** Identifies this adapter in Claude Code's User-Agent. */
const CLIENT_APP = "claude-agent-acp";

export function sdkOptions(options: ClaudeQueryOptions): Options {
  return {
    cwd: options.cwd,
    ...(options.sessionId ? { sessionId: options.sessionId } : {}),
    ...(options.resume ? { resume: options.resume } : {}),
    additionalDirectories: options.additionalDirectories ?? [],
    mcpServers: options.mcpServers ?? {},
    // Stdio/http/sse servers ride in the initialize request, not on the command line,
    // so their env and headers stay out of `ps`.
    mcpServersDelivery: "initialize",
    permissionMode: options.permissionMode ?? "default",
    ...(options.model ? { model: options.model } : {}),
    ...(options.effort ? { effort: options.effort } : {}),
    disallowedTools: options.disallowedTools ?? [],
    ...(options.flagSettings && Object.keys(options.flagSettings).length
      ? { settings: options.flagSettings }
      : {}),
    ...(options.allowBypass ? { allowDangerouslySkipPermissions: true } : {}),
    canUseTool: options.canUseTool,
    // Behave as Claude Code does in a terminal: its prompt, its settings files.
    systemPrompt: { type: "preset", preset: "claude_code" },
    settingSources: ["user", "project", "local"],
    includePartialMessages: true,
    pathToClaudeCodeExecutable: options.executable,
    env: { ...options.env, CLAUDE_AGENT_SDK_CLIENT_APP: CLIENT_APP },
    stderr: (data) => log.debug(`claude: ${data.trimEnd()}`),
  };
}

/** The production ClaudeQuery: one Claude Code process in streaming-input mode. */
export function startSdkQuery(options: ClaudeQueryOptions): ClaudeQuery {
  const input = new AsyncQueue<SDKUserMessage>();
  const q = query({ prompt: input, options: sdkOptions(options) });
  let closed = false;
  return {
    messages: q,
    send: (message) => input.push(message),
    interrupt: async () => {
      await q.interrupt();
    },
    setPermissionMode: async (mode) => {
      await q.setPermissionMode(mode);
    },
    setModel: (model) => q.setModel(model),
    applyFlagSettings: (settings) => q.applyFlagSettings(settings),
    initialization: async () => {
      const result = await q.initializationResult();
      return { commands: result.commands, models: result.models };
    },
    close: () => {
      if (closed) return;
      closed = true;
      input.close();
      q.close();
    },
  };
}
