import type { SpareProcess } from "@anthropic-ai/claude-agent-sdk";
import { log } from "../logger.js";
import { AsyncQueue } from "../util/async-queue.js";
import { ClaudeProcess } from "./child-process.js";
import type { EarlyStarts } from "./early-start.js";
import type {
  ClaudeQuery,
  ClaudeQueryOptions,
  OnMcpElicitation,
  OnSubagentStart,
  StartClaudeQuery,
} from "./query.js";
import { claudeSdk } from "./sdk-loader.js";
import { hostOptions, startColdQuery, wrapQuery } from "./sdk-query.js";
import type { CanUseTool, PermissionResult, SDKMessage, SDKUserMessage } from "./types.js";

/** How long a spare may take to start before it is given up. */
const PREWARM_TIMEOUT_MS = 60_000;
/** A claimed session that has not finished a turn by then no longer delays the replacement. */
const REPLACE_AT_THE_LATEST_MS = 10_000;

/** Runs `then` once the query's first turn has ended (or after a while, whichever first). */
function afterFirstTurn(query: ClaudeQuery, then: () => void): ClaudeQuery {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    then();
  };
  const timer = setTimeout(once, REPLACE_AT_THE_LATEST_MS);
  timer.unref();
  const messages = query.messages;
  return {
    ...query,
    sessionId: query.sessionId,
    messages: {
      async *[Symbol.asyncIterator](): AsyncGenerator<SDKMessage> {
        try {
          for await (const message of messages) {
            yield message;
            if (message.type === "result") once();
          }
        } finally {
          once();
        }
      },
    },
  };
}

/**
 * Everything a spare is fixed to at prewarm time. A session whose options differ in any
 * of these must not use the spare (its tools, environment or servers would be wrong).
 */
export function hostKey(options: ClaudeQueryOptions): string {
  const env = Object.entries(options.env)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify({
    executable: options.executable,
    env,
    disallowedTools: [...(options.disallowedTools ?? [])].sort(),
    allowBypass: !!options.allowBypass,
    forwardSubagentText: !!options.forwardSubagentText,
    thinking: options.thinking ?? null,
    promptSuggestions: !!options.promptSuggestions,
    mcpServers: options.mcpServers ?? {},
    settingsEnv: options.settingsEnv ?? {},
    // What a client configured: a spare is started without any of it.
    systemPrompt: options.systemPrompt ?? null,
    settingSources: options.settingSources ?? null,
    clientOptions: options.clientOptions ?? {},
  });
}

const NO_SESSION: PermissionResult = {
  behavior: "deny",
  message: "No session owns this Claude Code process yet.",
};

/** One parked Claude Code process and the session callback it will be bound to. */
class Spare {
  ready = false;
  dead = false;
  /** Settles once the process is gone (or never started): only then may another start. */
  readonly gone: Promise<void>;
  private process: SpareProcess | undefined;
  /** The spare's own process, for the session that claims it to end if it hangs. */
  private readonly child = new ClaudeProcess();
  /** The spare's permission callback forwards to the session that claims it. */
  private owner: CanUseTool | undefined;
  /** And so does its MCP elicitation handler; unclaimed, nobody can answer. */
  private elicitationOwner: OnMcpElicitation | undefined;
  /** And what it says of a subagent's start. */
  private subagentOwner: OnSubagentStart | undefined;

  constructor(
    readonly key: string,
    template: ClaudeQueryOptions,
  ) {
    const canUseTool: CanUseTool = (name, input, context) =>
      this.owner ? this.owner(name, input, context) : Promise.resolve(NO_SESSION);
    const onElicitation: OnMcpElicitation = (request, signal) =>
      this.elicitationOwner
        ? this.elicitationOwner(request, signal)
        : Promise.resolve({ action: "decline" });
    const onSubagentStart: OnSubagentStart = (agentId, cwd) =>
      this.subagentOwner ? this.subagentOwner(agentId, cwd) : Promise.resolve();
    this.gone = claudeSdk()
      .then((sdk) =>
        sdk.prewarm({
          options: hostOptions(template, this.child, canUseTool, onElicitation, onSubagentStart),
          initializeTimeoutMs: PREWARM_TIMEOUT_MS,
        }),
      )
      .then(
        async (process) => {
          this.process = process;
          if (this.dead) {
            process.close();
          } else {
            this.ready = true;
            log.debug("spare: a prewarmed Claude Code process is ready");
          }
          await process.exited;
          this.ready = false;
          this.dead = true;
        },
        (error: unknown) => {
          this.dead = true;
          log.warn("could not prewarm a Claude Code process", error);
        },
      );
  }

  /** Binds the spare to a session; resolves its id once Claude Code accepts the claim. */
  claim(options: ClaudeQueryOptions): ClaudeQuery {
    const process = this.process!;
    this.ready = false;
    this.owner = options.canUseTool;
    this.elicitationOwner = options.onElicitation;
    this.subagentOwner = options.onSubagentStart;
    const input = new AsyncQueue<SDKUserMessage>();
    const q = process.claim({
      prompt: input,
      options: {
        cwd: options.cwd,
        ...(options.additionalDirectories?.length
          ? { additionalDirectories: options.additionalDirectories }
          : {}),
        ...(options.model ? { model: options.model } : {}),
        ...(options.permissionMode ? { permissionMode: options.permissionMode } : {}),
        ...(options.flagSettings && Object.keys(options.flagSettings).length
          ? { settings: options.flagSettings }
          : {}),
      },
    });
    const sessionId = process.claimed.then(
      (claimed) => claimed.sessionId,
      (error: unknown) => {
        // Only a refused model keeps the claim: the session runs, without that option.
        const claim = (error as { claim?: { sessionId?: string } }).claim;
        if (
          error instanceof Error &&
          error.message.startsWith("option_not_applied") &&
          claim?.sessionId
        ) {
          log.warn(`claimed spare did not apply an option: ${error.message}`);
          return claim.sessionId;
        }
        throw error;
      },
    );
    return wrapQuery(q, input, sessionId, this.child);
  }

  discard(): void {
    this.dead = true;
    this.ready = false;
    this.process?.close();
  }
}

/**
 * Keeps one prewarmed Claude Code process ready, so `session/new` does not wait for a
 * process to start. A spare serves only a new session whose host options equal its own;
 * after each claim a replacement is started.
 */
export class SparePool {
  /** The one spare starting, ready, or on its way out. */
  private spare: Spare | undefined;
  /** What to start once the current spare is gone: the latest options asked for. */
  private wanted: { key: string; template: ClaudeQueryOptions } | undefined;
  private closed = false;

  constructor(private readonly enabled: boolean) {}

  /**
   * Makes sure a spare for these host options is starting or ready. At most one spare
   * process lives at a time, whatever is asked how often: one for other options starts
   * only once the current one has exited.
   */
  warm(template: ClaudeQueryOptions): void {
    if (!this.enabled || this.closed) return;
    const key = hostKey(template);
    if (this.spare && this.spare.key === key && !this.spare.dead) {
      this.wanted = undefined;
      return;
    }
    this.wanted = { key, template };
    if (this.spare) this.spare.discard();
    else this.startWanted();
  }

  private startWanted(): void {
    const wanted = this.wanted;
    this.wanted = undefined;
    if (!wanted || this.closed) return;
    const spare = new Spare(wanted.key, wanted.template);
    this.spare = spare;
    void spare.gone.then(() => {
      // A claimed spare is a session's process now; its replacement is asked for then.
      if (this.spare !== spare) return;
      this.spare = undefined;
      this.startWanted();
    });
  }

  /** A query from the ready spare, if it was started for exactly these options. */
  take(options: ClaudeQueryOptions): ClaudeQuery | undefined {
    const spare = this.spare;
    if (!spare?.ready || options.resume || options.exactSessionId) return undefined;
    if (spare.key !== hostKey(options)) {
      log.debug("spare: the prewarmed process does not match this session; starting a new one");
      return undefined;
    }
    log.debug("spare: the session claims the prewarmed process");
    this.spare = undefined;
    // The replacement starts once the claimed session's first turn is over, so the two do
    // not compete for the CPU just when the user is waiting for the first answer.
    return afterFirstTurn(spare.claim(options), () => this.warm(options));
  }

  close(): void {
    this.closed = true;
    this.wanted = undefined;
    this.spare?.discard();
    this.spare = undefined;
  }
}

/**
 * The production StartClaudeQuery: a claimed spare when one matches, else a new process.
 * A claim Claude Code refuses falls back to a new process before anything was sent. A new
 * process is started early when `earlyStarts` knows its configuration.
 */
export function sdkQueryStarter(pool: SparePool, earlyStarts?: EarlyStarts): StartClaudeQuery {
  return (options) => {
    const claimed = pool.take(options);
    if (!claimed) {
      pool.warm(options);
      return startColdQuery(options, earlyStarts);
    }
    return withColdFallback(claimed, () => startColdQuery(options, earlyStarts));
  };
}

/** Delegates to the claimed query, or to a cold one if the claim is refused. */
function withColdFallback(claimed: ClaudeQuery, cold: () => ClaudeQuery): ClaudeQuery {
  let active = claimed;
  let closed = false;
  const decided: Promise<ClaudeQuery> = claimed.sessionId.then(
    () => claimed,
    (error: unknown) => {
      // Closed while claiming: the claim failed for that, and nothing must start now.
      if (closed) throw error;
      log.info(`prewarmed process refused the session (${String(error)}); starting a new one`);
      claimed.close();
      active = cold();
      return active;
    },
  );
  return {
    get exited() {
      return active.exited;
    },
    sessionId: decided.then((query) => query.sessionId),
    messages: {
      async *[Symbol.asyncIterator](): AsyncGenerator<SDKMessage> {
        yield* (await decided).messages;
      },
    },
    send: (message) => active.send(message),
    interrupt: async () => (await decided).interrupt(),
    stopTask: async (taskId) => (await decided).stopTask(taskId),
    setPermissionMode: async (mode) => (await decided).setPermissionMode(mode),
    setModel: async (model) => (await decided).setModel(model),
    applyFlagSettings: async (settings) => (await decided).applyFlagSettings(settings),
    setThinking: async (budget, display) => (await decided).setThinking(budget, display),
    probe: async () => (await decided).probe(),
    reloadSkills: async () => (await decided).reloadSkills(),
    skillFiles: async () => (await decided).skillFiles(),
    mcpServerStatus: async () => (await decided).mcpServerStatus(),
    reconnectMcpServer: async (name) => (await decided).reconnectMcpServer(name),
    toggleMcpServer: async (name, enabled) => (await decided).toggleMcpServer(name, enabled),
    authenticateMcpServer: async (name) => (await decided).authenticateMcpServer(name),
    currentModel: async () => (await decided).currentModel(),
    ultracode: async () => (await decided).ultracode(),
    compactionSettings: async () => (await decided).compactionSettings(),
    startReport: async () => (await decided).startReport(),
    generateTitle: async (description) => (await decided).generateTitle(description),
    rewindFiles: async (id, dryRun) => (await decided).rewindFiles(id, dryRun),
    terminate: () => active.terminate(),
    initialization: async () => (await decided).initialization(),
    close: () => {
      closed = true;
      active.close();
    },
  };
}
