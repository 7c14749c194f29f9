import type {
  ClaudeInitialization,
  ClaudeQuery,
  ClaudeQueryOptions,
  FilesRewound,
  McpSignIn,
  StartClaudeQuery,
  StartReport,
} from "../../claude/query.js";
import type {
  McpServerStatus,
  PermissionMode,
  SDKMessage,
  SDKUserMessage,
  SlashCommand,
} from "../../claude/types.js";
import type { UltracodeReport } from "../../claude/ultracode.js";
import type { CompactionSettings } from "../../claude/compaction-settings.js";
import { deferred, type Deferred } from "../../util/deferred.js";

/**
 * A scripted stand-in for one Claude Code process, for in-process protocol tests.
 * The test emits the messages Claude Code would, and calls `canUseTool` as it would.
 */
export class FakeClaudeQuery implements ClaudeQuery {
  readonly sent: SDKUserMessage[] = [];
  readonly modes: PermissionMode[] = [];
  interrupts = 0;
  closed = false;
  /** Called on interrupt(); by default Claude Code answers with an interrupted result. */
  onInterrupt: () => void = () => this.emit(result({ subtype: "error_during_execution" }));
  private readonly buffer: SDKMessage[] = [];
  private waiter: Deferred<void> | undefined;
  private ended = false;
  private failure: Error | undefined;
  private readonly sendWaiters: Array<() => void> = [];

  readonly sessionId: Promise<string>;

  constructor(
    readonly options: ClaudeQueryOptions,
    private readonly init: FakeInitialization,
  ) {
    this.sessionId = Promise.resolve(options.resume ?? options.sessionId ?? "fake-session-id");
    this.skillFileList = init.skillFiles ?? [];
  }

  readonly messages: AsyncIterable<SDKMessage> = {
    [Symbol.asyncIterator]: () => ({
      next: async (): Promise<IteratorResult<SDKMessage>> => {
        for (;;) {
          const message = this.buffer.shift();
          if (message) return { value: message, done: false };
          if (this.ended) {
            if (this.failure) throw this.failure;
            return { value: undefined, done: true };
          }
          this.waiter = deferred<void>();
          await this.waiter.promise;
        }
      },
    }),
  };

  send(message: SDKUserMessage): void {
    this.sent.push(message);
    this.sendWaiters.splice(0).forEach((wake) => wake());
  }

  /** Resolves once `count` user messages have been sent to this process. */
  async waitForSent(count: number): Promise<SDKUserMessage> {
    while (this.sent.length < count) await new Promise<void>((r) => this.sendWaiters.push(r));
    return this.sent[count - 1]!;
  }

  emit(...messages: SDKMessage[]): void {
    this.buffer.push(...messages);
    this.wake();
  }

  /** The process ends, cleanly or with an error. */
  end(failure?: Error): void {
    this.ended = true;
    this.failure = failure;
    this.wake();
  }

  interrupt(): Promise<void> {
    this.interrupts++;
    this.onInterrupt();
    return Promise.resolve();
  }

  /** Tasks stopped (subagents cancelled from their child session), in order. */
  readonly stoppedTasks: string[] = [];

  stopTask(taskId: string): Promise<void> {
    this.stoppedTasks.push(taskId);
    return Promise.resolve();
  }

  setPermissionMode(mode: PermissionMode): Promise<void> {
    this.modes.push(mode);
    return Promise.resolve();
  }

  readonly models: Array<string | undefined> = [];
  readonly flagSettings: Array<Record<string, unknown>> = [];

  setModel(model: string | undefined): Promise<void> {
    this.models.push(model);
    return Promise.resolve();
  }

  applyFlagSettings(settings: Record<string, unknown>): Promise<void> {
    this.flagSettings.push(settings);
    return Promise.resolve();
  }

  /** Thinking changes, in order: the budget and the display. */
  readonly thinking: Array<{ budget: number; display?: string }> = [];

  setThinking(budget: number, display?: string): Promise<void> {
    this.thinking.push({ budget, ...(display ? { display } : {}) });
    return Promise.resolve();
  }

  /** Whether probe() is answered: false plays a process that stopped answering. */
  answersProbes = true;
  probes = 0;
  terminated = false;

  probe(): Promise<void> {
    this.probes++;
    return this.answersProbes ? Promise.resolve() : new Promise<void>(() => undefined);
  }

  /** What reloadSkills() answers. */
  skills: SlashCommand[] = [];

  reloadSkills(): Promise<SlashCommand[]> {
    return Promise.resolve(this.skills);
  }

  /** What skillFiles() answers. */
  skillFileList: Array<{ name: string; path?: string }>;

  skillFiles(): Promise<Array<{ name: string; path?: string }>> {
    return Promise.resolve(this.skillFileList);
  }

  /** What mcpServerStatus() answers; the control calls made, in order. */
  mcpServers: McpServerStatus[] = [];
  readonly mcpControls: string[] = [];

  mcpServerStatus(): Promise<McpServerStatus[]> {
    return Promise.resolve(this.mcpServers);
  }

  reconnectMcpServer(name: string): Promise<void> {
    this.mcpControls.push(`reconnect ${name}`);
    return Promise.resolve();
  }

  toggleMcpServer(name: string, enabled: boolean): Promise<void> {
    this.mcpControls.push(`${enabled ? "enable" : "disable"} ${name}`);
    return Promise.resolve();
  }

  /** What authenticateMcpServer() answers (an Error: it rejects with it). */
  mcpSignIn: McpSignIn | Error = { authorizationUrl: "https://auth.example/authorize?x=1" };

  authenticateMcpServer(name: string): Promise<McpSignIn> {
    this.mcpControls.push(`auth ${name}`);
    return this.mcpSignIn instanceof Error
      ? Promise.reject(this.mcpSignIn)
      : Promise.resolve(this.mcpSignIn);
  }

  /** What ultracode() answers; the flag settings applied are in `flagSettings`. */
  ultracodeReport: UltracodeReport | undefined = undefined;

  ultracode(): Promise<UltracodeReport | undefined> {
    return Promise.resolve(this.ultracodeReport);
  }

  /** Whether startReport() says the settings start thinking off (not unless a test says). */
  settingsThinkingOff: boolean | undefined = false;
  rewindFiles(_userMessageId: string, _dryRun: boolean): Promise<FilesRewound> {
    return Promise.resolve({ canRewind: false, error: "the fake keeps no checkpoints" });
  }

  startReport(): Promise<StartReport> {
    return Promise.resolve({
      ultracode: this.ultracodeReport,
      thinkingOff: this.settingsThinkingOff,
    });
  }

  /** What compactionSettings() answers (Claude Code's defaults unless a test sets others). */
  compaction: CompactionSettings | undefined = { autoCompact: true, idleCompaction: true, env: {} };
  compactionSettings(): Promise<CompactionSettings | undefined> {
    return Promise.resolve(this.compaction);
  }

  /** What currentModel() answers (by default the model the process was started with). */
  model: string | undefined;

  currentModel(): Promise<string> {
    return Promise.resolve(this.model ?? this.options.model ?? "default");
  }

  /** What generateTitle() answers, and the descriptions it was asked about. */
  generatedTitle: string | undefined = "Generated title";
  titleRequests: string[] = [];

  generateTitle(description: string): Promise<string | undefined> {
    this.titleRequests.push(description);
    return Promise.resolve(this.generatedTitle);
  }

  /** The process is killed: it ends without a word. */
  terminate(): void {
    this.terminated = true;
    this.end(new Error("killed"));
  }

  initialization(): Promise<ClaudeInitialization> {
    return Promise.resolve(this.init);
  }

  close(): void {
    this.closed = true;
    this.end();
  }

  /** Calls the session's permission callback as Claude Code would. */
  canUseTool(
    toolName: string,
    input: Record<string, unknown>,
    context: Partial<Parameters<ClaudeQueryOptions["canUseTool"]>[2]> & { toolUseID: string },
  ): ReturnType<ClaudeQueryOptions["canUseTool"]> {
    return this.options.canUseTool(toolName, input, {
      signal: new AbortController().signal,
      requestId: `req-${context.toolUseID}`,
      ...context,
    });
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.resolve();
  }
}

/** What a fake process reports at its start; `skillFiles`: its skill report (skillFiles()). */
type FakeInitialization = ClaudeInitialization & {
  skillFiles?: Array<{ name: string; path?: string }>;
};

/** A StartClaudeQuery that records every fake process it starts. */
export function fakeClaude(init: Partial<FakeInitialization> = {}): {
  startQuery: StartClaudeQuery;
  started: FakeClaudeQuery[];
  nextStart(): Promise<FakeClaudeQuery>;
} {
  const started: FakeClaudeQuery[] = [];
  const waiters: Array<(query: FakeClaudeQuery) => void> = [];
  const initialization = { commands: [], models: [], ...init };
  return {
    started,
    startQuery: (options) => {
      const query = new FakeClaudeQuery(options, initialization);
      started.push(query);
      waiters.splice(0).forEach((wake) => wake(query));
      return query;
    },
    nextStart: () => new Promise((resolve) => waiters.push(resolve)),
  };
}

/**
 * A fake Claude Code whose every process starts only when the test resolves its start (or
 * fails when the test rejects it): `starts[i]` is the i-th process's.
 */
export function fakeClaudeStartedByTest(init: Partial<FakeInitialization> = {}) {
  const claude = fakeClaude(init);
  const starts: Array<Deferred<ClaudeInitialization>> = [];
  const startQuery: StartClaudeQuery = (options) => {
    const query = claude.startQuery(options) as FakeClaudeQuery;
    const start = deferred<ClaudeInitialization>();
    starts.push(start);
    query.initialization = () => start.promise;
    return query;
  };
  return { ...claude, startQuery, starts };
}

// ---- SDK message builders (only the fields the adapter reads) ----

const SESSION = "fake-session";
let counter = 0;
const uuid = (): string => `00000000-0000-4000-8000-${String(++counter).padStart(12, "0")}`;

/** Any SDK message, with the envelope fields filled in. */
export function sdkMessage(message: Record<string, unknown>): SDKMessage {
  return sdk(message);
}

function sdk(message: Record<string, unknown>): SDKMessage {
  return { uuid: uuid(), session_id: SESSION, ...message } as unknown as SDKMessage;
}

export function streamEvent(
  event: Record<string, unknown>,
  parent: string | null = null,
): SDKMessage {
  return sdk({ type: "stream_event", event, parent_tool_use_id: parent });
}

/** The partial events of one streamed text block. */
export function streamedText(messageId: string, ...deltas: string[]): SDKMessage[] {
  return [
    streamEvent({ type: "message_start", message: { id: messageId, content: [], usage: {} } }),
    streamEvent({
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    }),
    ...deltas.map((text) =>
      streamEvent({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }),
    ),
    streamEvent({ type: "content_block_stop", index: 0 }),
  ];
}

export function assistant(
  messageId: string,
  content: Array<Record<string, unknown>>,
  extra: Record<string, unknown> = {},
): SDKMessage {
  return sdk({
    type: "assistant",
    message: { id: messageId, type: "message", role: "assistant", content, usage: {} },
    parent_tool_use_id: null,
    ...extra,
  });
}

export function toolUse(
  id: string,
  name: string,
  input: Record<string, unknown>,
  parent: string | null = null,
): SDKMessage {
  return assistant(`msg-${id}`, [{ type: "tool_use", id, name, input }], {
    parent_tool_use_id: parent,
  });
}

export function toolResult(
  toolUseId: string,
  content: string,
  options: { isError?: boolean; structured?: unknown; parent?: string | null } = {},
): SDKMessage {
  return sdk({
    type: "user",
    message: {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: toolUseId,
          content,
          is_error: options.isError ?? false,
        },
      ],
    },
    parent_tool_use_id: options.parent ?? null,
    ...(options.structured === undefined ? {} : { tool_use_result: options.structured }),
  });
}

export function result(
  fields: {
    subtype?: "success" | "error_during_execution" | "error_max_turns";
    stopReason?: string | null;
    isError?: boolean;
    text?: string;
    errors?: string[];
    usage?: Record<string, number>;
    costUsd?: number;
    modelUsage?: Record<string, Record<string, number>>;
    /** Other fields of the result (user_message_uuid, origin...). */
    extra?: Record<string, unknown>;
  } = {},
): SDKMessage {
  return sdk({
    ...fields.extra,
    type: "result",
    subtype: fields.subtype ?? "success",
    is_error: fields.isError ?? false,
    stop_reason: fields.stopReason ?? "end_turn",
    result: fields.text ?? "",
    errors: fields.errors ?? [],
    duration_ms: 1,
    duration_api_ms: 1,
    num_turns: 1,
    total_cost_usd: fields.costUsd ?? 0,
    usage: fields.usage ?? { input_tokens: 0, output_tokens: 0 },
    modelUsage: fields.modelUsage ?? {},
    permission_denials: [],
  });
}

/** What Claude Code sends for a turn its credentials were refused for: its note, then the result. */
export function authenticationFailure(text: string): SDKMessage[] {
  return [
    sdk({
      type: "assistant",
      message: { id: "x", model: "<synthetic>", content: [{ type: "text", text }] },
      parent_tool_use_id: null,
      error: "authentication_failed",
    }),
    result({ isError: true, text, stopReason: "stop_sequence" }),
  ];
}

/** The result of a turn Claude Code started itself for a task notification. */
export function ownTurnResult(fields: Parameters<typeof result>[0] = {}): SDKMessage {
  return result({
    ...fields,
    extra: { origin: { kind: "task-notification", producer: "session-task" }, ...fields.extra },
  });
}
