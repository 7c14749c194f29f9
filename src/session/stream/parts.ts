// The stream's parts of one session, built and connected to one another; what they need of
// the other rooms comes through the host.
import type { UsageUpdate } from "@agentclientprotocol/sdk";
import type { SessionClient } from "../../acp/session-client.js";
import type { ClaudeQuery } from "../../claude/query.js";
import type { ClaudeTranscripts } from "../../claude/transcripts.js";
import type { SessionTerminals } from "../background/terminals.js";
import type { SessionConfiguration } from "../configuration/configuration.js";
import { RateLimitReporter } from "./rate-limits.js";
import { StreamTranslator } from "./stream.js";
import { StreamProgress } from "./stream-progress.js";
import { PromptSuggestions } from "./prompt-suggestions.js";
import { promptSuggestionUpdate, wantsPromptSuggestions } from "../../acp/prompt-suggestions.js";
import { SystemMessages } from "./system-messages.js";
import { CommandList } from "./command-list.js";
import { claudeTitlesItself, TitleWatcher } from "./titles.js";
import type { ToolCallTracker } from "./tool-calls.js";
import { UsageCommand } from "./usage-command.js";
import { UsageTracker } from "./usage.js";
import { PromptCacheClock } from "./prompt-cache.js";

/** What the stream's parts need of their session. */
export interface StreamHost {
  readonly client: SessionClient;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly transcripts: ClaudeTranscripts;
  readonly tools: ToolCallTracker;
  readonly terminals: SessionTerminals;
  send(update: () => Promise<void>): Promise<void>;
  /** The live Claude process, if any. */
  query(): ClaudeQuery | undefined;
  /** The Claude conversation the session continues now. */
  conversation(): string;
  configuration(): SessionConfiguration;
  /** The tools Claude Code reported it has (a plan's handoff needs one). */
  capabilitiesReported(capabilities: readonly string[]): void;
  mcpServersReported(servers: ReadonlyArray<{ name: string; status: string }>): Promise<void>;
  elicitationComplete(elicitationId: string): Promise<void>;
}

export type StreamParts = ReturnType<typeof streamParts>;

export function streamParts(host: StreamHost) {
  const { client, cwd, tools, terminals } = host;
  const usage = new UsageTracker();
  /** The main thread's prompt cache (an idle compaction is due before it expires). */
  const cache = new PromptCacheClock();
  /** The subscription's limits Claude Code reports (rate-limits.ts). */
  const rateLimits = new RateLimitReporter();
  const usageCommand = new UsageCommand();
  /** Sends a usage update with the limits' state, when there is one. */
  const sendUsage = async (update: UsageUpdate | undefined): Promise<void> => {
    if (update) await host.send(() => client.updateUsage(rateLimits.withState(update)));
  };
  const stream = new StreamTranslator(client, tools, { cwd }, terminals);
  /** The slash commands offered, with the skills Claude Code reports (command-list.ts). */
  const commands = new CommandList(host);
  const systemMessages = new SystemMessages({
    client,
    offerCommands: (list) => commands.offer(list),
    configuration: () => host.configuration(),
    capabilitiesReported: (capabilities) => host.capabilitiesReported(capabilities),
    mcpServersReported: (servers) => host.mcpServersReported(servers),
    elicitationComplete: (id) => host.elicitationComplete(id),
    send: (update) => host.send(update),
    compacted: (tokens) => sendUsage(usage.compacted(tokens)),
    taskEnded: (task) => terminals.taskEnded(task),
    foregroundTask: (task) => terminals.foregroundStarted(task),
  });
  const titles = new TitleWatcher(
    {
      info: () => host.transcripts.info(host.conversation(), cwd),
      generate: async (description) => host.query()?.generateTitle(description),
      titlesItself: claudeTitlesItself(host.env),
    },
    (title, updatedAt) => client.updateSessionInfo({ title, updatedAt }),
  );
  /** How far the messages are shown: a permission ask waits for what came before it. */
  const progress = new StreamProgress();
  const suggestions = new PromptSuggestions(wantsPromptSuggestions(client.capabilities), (text) =>
    host.send(() => client.updateSessionInfo(promptSuggestionUpdate(text))),
  );
  return {
    usage,
    cache,
    rateLimits,
    usageCommand,
    sendUsage,
    stream,
    commands,
    systemMessages,
    titles,
    progress,
    suggestions,
  };
}
