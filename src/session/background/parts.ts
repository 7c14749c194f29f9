// The background's parts of one session, built and connected to one another; what they
// need of the other rooms comes through the host.
import type { SessionClient } from "../../acp/session-client.js";
import type { ClaudeQuery } from "../../claude/query.js";
import { taskOutputFile } from "../../claude/task-output.js";
import type { ClaudeTranscripts } from "../../claude/transcripts.js";
import { sessionEnvironment } from "../configuration/claude-env.js";
import type { ClientSetup } from "../configuration/client-setup.js";
import type { ToolCallTracker, TrackedToolCall } from "../stream/tool-calls.js";
import { AsyncTaskReports } from "./async-tasks.js";
import { ClaudeActivity } from "./claude-activity.js";
import { ClaudeTasks } from "./claude-tasks.js";
import { savedSubagent } from "./subagent-replay.js";
import { Subagents } from "./subagents.js";
import { SessionTerminals } from "./terminals.js";

/** What the background's parts need of their session. */
export interface BackgroundHost {
  readonly client: SessionClient;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly setup: ClientSetup;
  readonly transcripts: ClaudeTranscripts;
  readonly tools: ToolCallTracker;
  send(update: () => Promise<void>): Promise<void>;
  /** The live Claude process, if any. */
  query(): ClaudeQuery | undefined;
  /** The Claude conversation the session continues now. */
  conversation(): string;
  /** Settles tool calls a task ended with, for `reason`. */
  closeToolCalls(calls: TrackedToolCall[], reason: string): Promise<void>;
  /** Background work ended: the session may be idle. */
  idle(): void;
}

export type BackgroundParts = ReturnType<typeof backgroundParts>;

export function backgroundParts(host: BackgroundHost) {
  const { client, cwd, tools } = host;
  const tasks = new ClaudeTasks({
    tools,
    close: (calls, reason) => host.closeToolCalls(calls, reason),
    reports: new AsyncTaskReports({ client, tools, send: (update) => host.send(update) }),
  });
  const activity = new ClaudeActivity(() => host.idle());
  const terminals = new SessionTerminals(
    {
      client,
      send: (update) => host.send(update),
      process: () => host.query(),
      backgroundTask: (toolUseId) => tasks.backgroundCommand(toolUseId),
      call: (toolUseId) => tools.get(toolUseId),
      taskOutputFile: (taskId) =>
        taskOutputFile(sessionEnvironment(host.env, host.setup), host.conversation(), taskId),
    },
    cwd,
  );
  const subagents = new Subagents({
    children: client.children,
    tools,
    cwd,
    query: () => host.query(),
    savedAgent: (agentId) => savedSubagent(host.transcripts, host.conversation(), agentId, cwd),
  });
  return { tasks, activity, terminals, subagents };
}
