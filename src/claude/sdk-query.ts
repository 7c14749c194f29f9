import type {
  HookCallback,
  Options,
  Query,
  SpawnedProcess,
  SpawnOptions,
} from "@anthropic-ai/claude-agent-sdk";
import { log } from "../logger.js";
import { AsyncQueue } from "../util/async-queue.js";
import { deferred } from "../util/deferred.js";
import { nextTurn } from "../util/next-turn.js";
import { ClaudeProcess } from "./child-process.js";
import { ultracodeOf, ultracodeReport } from "./ultracode.js";
import { compactionSettings } from "./compaction-settings.js";
import { settingsReport, thinkingOffOf } from "./settings-report.js";
import { DEFAULT_SETTING_SOURCES } from "./client-options/options.js";
import type { EarlyStarts } from "./early-start.js";
import { sdkEnvironment } from "./environment.js";
import { authenticateMcpServer } from "./mcp-auth.js";
import type { ClaudeQuery, ClaudeQueryOptions, OnSubagentStart } from "./query.js";
import { mark } from "../runtime/marks.js";
import { claudeSdk, claudeSdkLoaded } from "./sdk-loader.js";
import type { SDKMessage, SDKUserMessage } from "./types.js";

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
    // The client's options first: whatever the agent sets below is the agent's.
    ...(options.clientOptions as Partial<Options> | undefined),
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
    // Behave as Claude Code does in a terminal (its prompt, its settings files), unless the
    // client chose otherwise.
    systemPrompt: options.systemPrompt ?? { type: "preset", preset: "claude_code" },
    settingSources: [...(options.settingSources ?? DEFAULT_SETTING_SOURCES)],
    includePartialMessages: true,
    // Every session keeps its files' checkpoints, so a rewind can put files back
    // (core/rewinds.ts); the same for every process, so a spare or an early start has it too.
    enableFileCheckpointing: true,
    ...(options.forwardSubagentText ? { forwardSubagentText: true } : {}),
    ...(options.promptSuggestions ? { promptSuggestions: true } : {}),
    // The display alone: the kind of thinking stays Claude Code's choice for the model.
    ...(options.thinking && options.thinking !== "off" && !options.clientOptions?.thinking
      ? { extraArgs: { "thinking-display": options.thinking } }
      : {}),
    pathToClaudeCodeExecutable: options.executable,
    env: sdkEnvironment(options.env),
    ...(options.settingsEnv ? { settings: hostSettings(options) } : {}),
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
    ...(options.resume && options.resumeSessionAt
      ? {
          resumeSessionAt: options.resumeSessionAt,
          ...(options.resumeDropsTurn ? { resumeDropsTurn: options.resumeDropsTurn } : {}),
        }
      : {}),
    additionalDirectories: options.additionalDirectories ?? [],
    permissionMode: options.permissionMode ?? "default",
    ...(options.model ? { model: options.model } : {}),
    ...(options.effort ? { effort: options.effort } : {}),
    ...(options.flagSettings && Object.keys(options.flagSettings).length
      ? { settings: { ...options.flagSettings, ...hostSettings(options) } }
      : {}),
  };
}

/** The flag settings every process of these options starts with (see `settingsEnv`). */
function hostSettings(options: ClaudeQueryOptions): { env?: Record<string, string> } {
  return options.settingsEnv ? { env: options.settingsEnv } : {};
}

/**
 * A ClaudeQuery over one SDK Query, or over one created once the SDK has loaded (`pending`
 * is then called, and creates nothing if the query was closed meanwhile), and the input
 * queue that feeds it: what is sent meanwhile waits in the queue.
 */
export function wrapQuery(
  pending: Query | ((isClosed: () => boolean) => Promise<Query | undefined>),
  input: AsyncQueue<SDKUserMessage>,
  sessionId: Promise<string>,
  claudeProcess: ClaudeProcess,
): ClaudeQuery {
  let closed = false;
  let ready: Query | undefined;
  const created = (
    typeof pending === "function" ? pending(() => closed) : Promise.resolve(pending)
  ).then((q) => (ready = q));
  created.catch(() => undefined);
  const exit = deferred<void>();
  const sdk = async (): Promise<Query> => {
    const q = ready ?? (await created);
    if (!q) throw new Error("the Claude Code process was closed before it started");
    return q;
  };
  const ended: IteratorResult<SDKMessage> = { done: true, value: undefined };
  return {
    exited: exit.promise,
    sessionId,
    messages: {
      [Symbol.asyncIterator]: () => ({
        // Straight to the SDK's iterator once the Query exists: no extra await per message.
        next: (): Promise<IteratorResult<SDKMessage>> =>
          ready ? ready.next() : created.then((q) => (q ? q.next() : ended)),
        return: async (): Promise<IteratorResult<SDKMessage>> => {
          const q = ready ?? (await created);
          return q ? q.return(undefined) : ended;
        },
      }),
    },
    send: (message) => input.push(message),
    interrupt: async () => {
      try {
        await (await sdk()).interrupt();
      } catch (error) {
        // Closed meanwhile (a session closed or deleted mid-turn): nothing left to stop.
        if (!closed) throw error;
      }
    },
    stopTask: async (taskId) => (await sdk()).stopTask(taskId),
    setPermissionMode: async (mode) => {
      await (await sdk()).setPermissionMode(mode);
    },
    setModel: async (model) => (await sdk()).setModel(model),
    applyFlagSettings: async (settings) => (await sdk()).applyFlagSettings(settings),
    setThinking: async (budget, display) =>
      (await sdk()).setMaxThinkingTokens(budget, ...(display ? [display] : [])),
    probe: async () => {
      await (await sdk()).mcpServerStatus();
    },
    reloadSkills: async () => (await (await sdk()).reloadSkills()).skills,
    skillFiles: async () => {
      const usage = await (await sdk()).getContextUsage({ detail: "summary" });
      return (usage.skills?.skillFrontmatter ?? []).map(({ name, path }) => ({
        name,
        ...(path !== undefined ? { path } : {}),
      }));
    },
    mcpServerStatus: async () => (await sdk()).mcpServerStatus(),
    reconnectMcpServer: async (name) => (await sdk()).reconnectMcpServer(name),
    toggleMcpServer: async (name, enabled) => (await sdk()).toggleMcpServer(name, enabled),
    authenticateMcpServer: async (name) => authenticateMcpServer(await sdk(), name),
    currentModel: async () => (await (await sdk()).getContextUsage({ detail: "summary" })).model,
    ultracode: async () => ultracodeReport(await sdk()),
    compactionSettings: async () => compactionSettings(await sdk()),
    startReport: async () => {
      const report = await settingsReport(await sdk());
      return { ultracode: ultracodeOf(report), thinkingOff: thinkingOffOf(report) };
    },
    generateTitle: async (description) => generateSessionTitle(await sdk(), description),
    rewindFiles: async (userMessageId, dryRun) =>
      (await sdk()).rewindFiles(userMessageId, { dryRun }),
    terminate: () => claudeProcess.terminate(),
    initialization: async () => {
      const result = await (await sdk()).initializationResult();
      return { commands: result.commands, models: result.models };
    },
    close: () => {
      if (closed) return;
      closed = true;
      input.close();
      created.then(
        (q) => {
          if (!q) return exit.resolve();
          q.close();
          // A process started early that the SDK had not asked for yet.
          claudeProcess.discardEarly();
          // The SDK's return() waits for the process to exit, but only for a grace, after
          // which it signals it: a process still starting may outlive it a little, so the
          // process's own exit is waited for too.
          const gone = () => claudeProcess.exited().then(() => exit.resolve());
          q.return(undefined).then(gone, gone);
        },
        () => exit.resolve(),
      );
    },
  };
}

/** The SDK's title generation control request (`generate_session_title`). */
type GenerateSessionTitle = (
  description: string,
  options?: { persist?: boolean },
) => Promise<unknown>;

/**
 * The SDK's Query answers `generateSessionTitle` at run time, but its type declarations do
 * not name it yet: the method is looked up, and a Query without it titles nothing. Its
 * answer is Claude Code's `title`, null when the model's reply gave none.
 */
async function generateSessionTitle(q: Query, description: string): Promise<string | undefined> {
  if (!("generateSessionTitle" in q) || typeof q.generateSessionTitle !== "function") {
    throw new Error("this Claude Agent SDK cannot generate session titles");
  }
  const generate = q.generateSessionTitle as GenerateSessionTitle;
  const title = await generate.call(q, description, { persist: true });
  return typeof title === "string" ? title : undefined;
}

/**
 * A new Claude Code process in streaming-input mode. With `earlyStarts`, a configuration
 * seen before has its process started while the SDK loads (early-start.ts).
 */
export function startColdQuery(
  options: ClaudeQueryOptions,
  earlyStarts?: EarlyStarts,
): ClaudeQuery {
  const input = new AsyncQueue<SDKUserMessage>();
  const claudeProcess = new ClaudeProcess();
  const sdkOpts = sdkOptions(options, claudeProcess);
  // Closed while the SDK loaded (a session closed, or reopened under its id): no process.
  const q = async (isClosed: () => boolean): Promise<Query | undefined> => {
    try {
      const sdkLoaded = claudeSdkLoaded();
      if (!sdkLoaded) {
        // Two turns of the event loop first: session/new's answer is written (stdout's
        // batch is flushed by a setImmediate queued after the first), then the early
        // process is spawned (a spawn blocks a while). Only then the SDK's load, which on
        // node 22 and later compiles and runs the SDK in one blocking step.
        await nextTurn();
        await nextTurn();
        if (isClosed()) return undefined;
      }
      const expected = earlyStarts?.expected(sdkOpts);
      // The process started at launch has had a head start even if the SDK is loaded.
      const launched = earlyStarts?.fromLaunch(expected);
      if (expected && (launched || !sdkLoaded)) claudeProcess.startEarly(expected, launched);
      const sdk = await claudeSdk();
      if (isClosed()) {
        claudeProcess.discardEarly();
        return undefined;
      }
      mark("claude-query");
      const spawnClaudeCodeProcess = (spawn: SpawnOptions): SpawnedProcess => {
        earlyStarts?.remember(sdkOpts, spawn);
        return claudeProcess.spawn(spawn);
      };
      const query = sdk.query({ prompt: input, options: { ...sdkOpts, spawnClaudeCodeProcess } });
      // Before any prompt: Claude Code handles this ahead of the input it streams next.
      if (options.thinking === "off") {
        query.setMaxThinkingTokens(0).catch((error: unknown) => {
          log.warn("could not turn Claude's thinking off", error);
        });
      }
      return query;
    } catch (error) {
      claudeProcess.discardEarly();
      throw error;
    }
  };
  const id = options.resume ?? options.sessionId;
  const sessionId = id
    ? Promise.resolve(id)
    : Promise.reject(new Error("a Claude query needs a session id or a session to resume"));
  sessionId.catch(() => undefined);
  return wrapQuery(q, input, sessionId, claudeProcess);
}
