// A session's first process: started without waiting for it to be ready, so the session
// answers with the modes and models known so far; what Claude Code then reports (its models,
// its commands) follows, and a start that fails is reported to the client and to the prompt
// waiting for it, or else to the next one.
import type { SessionClient } from "../../acp/session-client.js";
import type { ClaudeInitialization, ClaudeQuery } from "../../claude/query.js";
import type { ModelInfo, PermissionMode, SlashCommand } from "../../claude/types.js";
import { ClaudeProcessExitedError } from "../../errors.js";
import { log } from "../../logger.js";
import { withTimeout } from "../../util/timeout.js";
import type { ClientSetup } from "../configuration/client-setup.js";
import { SessionConfiguration } from "../configuration/configuration.js";
import { initialConfiguration } from "../configuration/initial-state.js";
import type { KnownModels } from "../configuration/model-cache.js";
import type { AdapterSettings } from "../configuration/settings.js";
import type { SessionMcp } from "../../mcp/session-mcp.js";
import { ignoredOptionsNotice, startFailedNotice } from "../stream/notices.js";
import type { TitleWatcher } from "../stream/titles.js";
import type { TurnQueue } from "../turns/turn-queue.js";
import type { SessionProcess } from "./session-process.js";
import { StartupWatch, START_TIMEOUT_MS } from "./startup.js";

/** What the start needs of its session. */
export interface SessionStartupHost {
  id(): string;
  client: SessionClient;
  settings: AdapterSettings;
  env: NodeJS.ProcessEnv;
  setup: ClientSetup;
  /** The models of Claude Code's last start, offered until this one reports its own. */
  models: KnownModels;
  /** The saved conversation the session continues, if it does. */
  resume?: string | undefined;
  /** The models the provider's gateway serves, if the client set one. */
  providerModels(): readonly ModelInfo[] | undefined;
  process: SessionProcess;
  /** The queue whose waiting prompt a failed start fails. */
  turns(): TurnQueue;
  closed(): boolean;
  /** A prewarmed process named the conversation itself: the session takes that name. */
  rename(sessionId: string): void;
  /** Claude Code started: an idle session's process may now be closed. */
  idle(): void;
  send(update: () => Promise<void>): Promise<void>;
  /** Offers the client Claude Code's commands (command-list.ts). */
  offerCommands(commands: readonly SlashCommand[]): Promise<void>;
}

export class SessionStartup {
  /** The modes and options the session offers, once it has started. */
  configuration: SessionConfiguration | undefined;
  /** What Claude Code reported at its start. */
  initialization: ClaudeInitialization | undefined;
  /** The first process's start, which the session does not wait for (startup.ts). */
  private watch: StartupWatch | undefined;
  /** A failed start no prompt has reported yet: the next prompt does. */
  private failure: Error | undefined;

  constructor(private readonly host: SessionStartupHost) {}

  /**
   * Starts Claude Code without waiting for it to be ready (only for a prewarmed process's
   * claim, which names the conversation).
   */
  async start(): Promise<void> {
    const { settings, env, client, setup, process } = this.host;
    this.configuration = new SessionConfiguration(
      initialConfiguration({
        settings,
        env,
        models: this.host.providerModels() ?? this.host.models.known,
        booleanOptions: !!client.capabilities.session?.configOptions?.boolean,
        ...(setup.effort ? { effort: setup.effort } : {}),
        ...(setup.model ? { model: setup.model } : {}),
        ...(setup.options.env ? { clientEnv: setup.options.env } : {}),
        clientThinking: setup.options,
      }),
      {
        modeChanged: (mode) => client.updateCurrentMode(mode),
        optionsChanged: (options) => client.updateConfigOptions(options),
      },
    );
    const mode = this.configuration.startMode(this.wantedMode());
    this.configuration.assume();
    const query = process.start(mode);
    try {
      const claudeId = await withTimeout(query.sessionId, START_TIMEOUT_MS, "Claude Code start-up");
      // A prewarmed process names the conversation itself; the session takes that name,
      // so ACP ids and Claude's saved conversations always agree.
      if (claudeId !== process.conversation && !this.host.resume) {
        process.conversation = claudeId;
        this.host.rename(claudeId);
      }
    } catch (error) {
      process.current = undefined;
      query.close();
      throw error;
    }
    this.watch = new StartupWatch(query, {
      started: (q, initialization) => this.started(q, initialization),
      failed: (q, error) => this.failed(q, error),
    });
  }

  /**
   * Tells the client of options it asked for that the session ignores, then, once Claude Code
   * started, which slash commands it can offer and the conversation's title, then which MCP
   * servers failed.
   */
  async announce(parts: { titles: TitleWatcher; mcp: SessionMcp }): Promise<void> {
    const { client, setup, resume } = this.host;
    const ignored = [
      ...setup.ignored,
      ...(this.ignoredMode() ? [{ name: "permissionMode", reason: "mode" as const }] : []),
    ];
    if (ignored.length)
      await this.host.send(() => client.sendNotice(ignoredOptionsNotice(ignored)));
    await this.watch?.decided;
    if (!this.initialization || this.host.closed()) return;
    if (resume) void parts.titles.afterOpen();
    await this.host.offerCommands(this.initialization.commands);
    void parts.mcp.reportStartFailures().catch((error: unknown) => log.warn("MCP status", error));
  }

  /** A later process's commands (one that loads the folder's context), once it reports them. */
  async announceCommands(query: ClaudeQuery): Promise<void> {
    try {
      const { commands } = await query.initialization();
      if (this.host.closed() || this.host.process.current !== query) return;
      await this.host.send(() => this.host.offerCommands(commands));
    } catch (error) {
      log.debug(`session ${this.host.id()}: no commands to announce`, error);
    }
  }

  /** Whether `query` is the first process and has not started yet. */
  isStarting(query: ClaudeQuery): boolean {
    return this.watch?.isStarting(query) ?? false;
  }

  /** The first process ended before it started. */
  fail(query: ClaudeQuery, cause: unknown): Promise<void> {
    return this.watch?.fail(query, cause) ?? Promise.resolve();
  }

  /** The failed start no prompt has reported yet, once. */
  takeFailure(): Error | undefined {
    const failure = this.failure;
    this.failure = undefined;
    return failure;
  }

  requireConfiguration(): SessionConfiguration {
    if (!this.configuration) throw new ClaudeProcessExitedError("The session has not started.");
    return this.configuration;
  }

  /** Whether the client asked for a permission mode the session does not offer. */
  ignoredMode(): boolean {
    const mode = this.host.setup.permissionMode;
    if (!mode || !this.configuration) return false;
    return mode === "dontAsk" || !this.configuration.availableModeIds().has(mode);
  }

  /**
   * The mode the session starts in: the client's, when the session offers it (it is then
   * one of its modes, see `ignoredMode`), else the settings'.
   */
  private wantedMode(): PermissionMode {
    const { setup, settings } = this.host;
    return setup.permissionMode && !this.ignoredMode()
      ? setup.permissionMode
      : settings.defaultMode;
  }

  /** Claude Code reported what it offers: its models, its own model and the settings' mode apply. */
  private async started(query: ClaudeQuery, initialization: ClaudeInitialization): Promise<void> {
    if (this.host.closed() || this.host.process.current !== query) return;
    this.initialization = initialization;
    this.host.models.remember(initialization.models);
    const models = this.host.providerModels() ?? initialization.models;
    const reported = await query.startReport().catch(() => ({}));
    await this.host.send(() =>
      this.requireConfiguration().adopt(
        models,
        this.wantedMode(),
        (m) => query.setPermissionMode(m),
        reported,
      ),
    );
    this.host.idle();
  }

  /**
   * The first process did not start: the client hears it at once (a notice), and the
   * prompt waiting for it, or else the next one, fails with the reason. A later prompt
   * starts a new process.
   */
  private async failed(query: ClaudeQuery, error: Error): Promise<void> {
    const { process } = this.host;
    const turns = this.host.turns();
    if (this.host.closed() || process.current !== query || !process.endOnce(query)) return;
    log.warn(`session ${this.host.id()}: ${error.message}`);
    process.current = undefined;
    query.close();
    await this.host.send(() =>
      this.host.client.sendFailure(startFailedNotice(error.message), error),
    );
    const turn = turns.current;
    if (turn && !turn.isFinished) {
      turn.abort.abort(error);
      await turns.settle(turn, { error });
      turn.finish();
    } else {
      this.failure = error;
    }
  }
}
