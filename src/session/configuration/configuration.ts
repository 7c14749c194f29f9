import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";
import type { EffortLevel, ModelInfo, PermissionMode } from "../../claude/types.js";
import { InvalidParamsError } from "../../errors.js";
import { log } from "../../logger.js";
import { withTimeout } from "../../util/timeout.js";
import {
  CONFIG_IDS,
  configOptions,
  currentModelInfo,
  DEFAULT_EFFORT,
  DEFAULT_MODEL,
  resolveModelValue,
  supportedEfforts,
  unlistedModels,
  type ConfigContext,
  type SessionSettingsState,
} from "./config-options.js";
import { isPermissionMode } from "../../permissions/modes.js";
import { isModeAvailable, modeState, processMayBypass, type ModeConditions } from "./modes.js";
import { acceptedModel } from "./model-ids.js";
import { claudeOwnModel } from "./own-model.js";
import type { AdapterSettings } from "./settings.js";

/** How long reading Claude Code's current model after a turn may take. */
const MODEL_CHECK_TIMEOUT_MS = 2_000;

/** How configuration changes reach the running Claude Code process. */
export interface ClaudeControls {
  setPermissionMode(mode: PermissionMode): Promise<void>;
  setModel(model: string | undefined): Promise<void>;
  applyFlagSettings(settings: Record<string, unknown>): Promise<void>;
}

/** How configuration changes reach the client. */
export interface ConfigurationPublisher {
  modeChanged(mode: string): Promise<void>;
  optionsChanged(options: SessionConfigOption[]): Promise<void>;
}

export interface ConfigurationInit {
  state: SessionSettingsState;
  models: readonly ModelInfo[];
  /** The model Claude Code runs unless told one, as its environment or settings name it. */
  ownModel: string | undefined;
  /** The model the client named when it opened the session (a model id: client-setup.ts). */
  clientModel?: string;
  autoDisabled: boolean;
  bypassAllowed: boolean;
  booleanOptions: boolean;
}

/**
 * The session's mode, model, effort and fast mode: validated, applied to Claude Code
 * through the SDK, and published to the client.
 */
export class SessionConfiguration {
  /** A new session's: the defaults, the models known so far, the limits its settings set. */
  static forSession(
    session: {
      settings: Pick<AdapterSettings, "autoDisabled" | "bypassDisabled" | "model" | "envModel">;
      env: NodeJS.ProcessEnv;
      models: readonly ModelInfo[];
      booleanOptions: boolean;
      /** The effort the client asked for when it opened the session. */
      effort?: EffortLevel;
      /** The model the client asked for when it opened the session: as if it picked it. */
      model?: string;
      /** The environment the client adds for Claude Code (its `ANTHROPIC_MODEL` counts). */
      clientEnv?: Record<string, string>;
    },
    publish: ConfigurationPublisher,
  ): SessionConfiguration {
    const { settings, env } = session;
    return new SessionConfiguration(
      {
        state: {
          mode: "default",
          model: DEFAULT_MODEL,
          effort: session.effort ?? DEFAULT_EFFORT,
          fastMode: false,
        },
        models: session.models,
        ownModel: claudeOwnModel(settings, { ...env, ...session.clientEnv }),
        ...(session.model ? { clientModel: session.model } : {}),
        autoDisabled: settings.autoDisabled,
        bypassAllowed: processMayBypass(env, process.getuid?.()) && !settings.bypassDisabled,
        booleanOptions: session.booleanOptions,
      },
      publish,
    );
  }

  private readonly state: SessionSettingsState;
  private models: readonly ModelInfo[];
  /** Whether `models` is a list Claude Code reported (now or at an earlier start). */
  private modelsKnown: boolean;
  private startedIn: PermissionMode = "default";
  /** `init.ownModel` as the model option shows it (`assume`, `adopt`). */
  private ownModel = DEFAULT_MODEL;
  /** What the client set itself: Claude Code's report at start-up does not undo it. */
  private readonly chosen = new Set<"mode" | "model">();

  constructor(
    private readonly init: ConfigurationInit,
    private readonly publish: ConfigurationPublisher,
  ) {
    this.state = { ...init.state };
    this.models = init.models;
    this.modelsKnown = init.models.length > 0;
  }

  get current(): Readonly<SessionSettingsState> {
    return this.state;
  }

  /** The models Claude Code reported (now or at an earlier start); may be none yet. */
  get knownModels(): readonly ModelInfo[] {
    return this.models;
  }

  /**
   * The model as Claude Code's `model` option takes it: undefined while the session runs
   * the model Claude Code picks itself. `default` picked over the model of its environment
   * or settings goes as `default`, Claude Code's name for its default model.
   */
  get claudeModel(): string | undefined {
    return this.state.model === this.ownModel ? undefined : this.state.model;
  }

  /** Flag settings that carry effort and fast mode into a (new) Claude process. */
  flagSettings(): Record<string, unknown> {
    return {
      ...(this.state.effort !== DEFAULT_EFFORT ? { effortLevel: this.state.effort } : {}),
      ...(this.state.fastMode ? { fastMode: true } : {}),
    };
  }

  conditions(): ModeConditions {
    return {
      // Until Claude Code names its models (none known from an earlier start), Auto is
      // offered as its default models offer it; the list it reports then decides.
      modelSupportsAuto: this.modelsKnown
        ? (currentModelInfo(this.state, this.models)?.supportsAutoMode ?? false)
        : true,
      autoDisabled: this.init.autoDisabled,
      bypassAllowed: this.init.bypassAllowed,
    };
  }

  /** Modes the session offers now, by id. */
  availableModeIds(): Set<string> {
    return new Set(this.modes().availableModes.map((mode) => mode.id));
  }

  modes(): SessionModeState {
    return modeState(this.state.mode, this.conditions());
  }

  options(): SessionConfigOption[] {
    return configOptions(this.state, this.context());
  }

  private context(): ConfigContext {
    return {
      models: this.models,
      ownModel: this.ownModel,
      conditions: this.conditions(),
      booleanOptions: this.init.booleanOptions,
    };
  }

  /**
   * Before Claude Code has reported its models (session/new answers first, and its process
   * starts after this): the model it runs by itself as the known models resolve it, and
   * the mode the process starts in.
   */
  assume(): void {
    this.ownModel = this.shownModel(this.init.ownModel);
    this.state.model = this.ownModel;
    this.state.mode = this.startedIn;
    const { clientModel } = this.init;
    const picked = clientModel ? acceptedModel(clientModel, this.models) : undefined;
    if (picked) {
      this.state.model = picked;
      this.chosen.add("model");
    }
  }

  /**
   * Claude Code reported its models: the model it runs by itself and the settings' mode are
   * adopted as far as the client has not chosen others meanwhile (a mode the session
   * cannot offer, such as auto on a model without it, falls back to `default`), and the
   * client hears what changed.
   */
  async adopt(
    models: readonly ModelInfo[],
    wantedMode: PermissionMode,
    setClaudeMode: (mode: PermissionMode) => Promise<void>,
  ): Promise<void> {
    const mode = this.state.mode;
    const options = JSON.stringify(this.options());
    this.models = models;
    this.modelsKnown = true;
    this.ownModel = this.shownModel(this.init.ownModel);
    if (!this.chosen.has("model")) this.state.model = this.ownModel;
    if (!this.chosen.has("mode")) {
      const usable =
        wantedMode === "dontAsk" || isModeAvailable(wantedMode, this.conditions())
          ? wantedMode
          : "default";
      this.state.mode = usable;
      if (usable !== this.startedIn) await setClaudeMode(usable);
    }
    if (this.state.mode !== mode) await this.publish.modeChanged(this.state.mode);
    if (JSON.stringify(this.options()) !== options) {
      await this.publish.optionsChanged(this.options());
    }
  }

  /**
   * The model of the environment or a settings file (a project's file may hold anything):
   * only a model id is shown, anything else as the default.
   */
  private shownModel(model: string | undefined): string {
    const accepted = model ? acceptedModel(model, this.models) : undefined;
    if (model && !accepted) {
      log.warn("ANTHROPIC_MODEL or the settings name a model that is not a model id; not shown");
    }
    return accepted ?? DEFAULT_MODEL;
  }

  /** The mode a Claude process may be started in before the model list is known. */
  startMode(wanted: PermissionMode): PermissionMode {
    const startable =
      wanted === "bypassPermissions"
        ? this.init.bypassAllowed
        : wanted === "auto"
          ? !this.init.autoDisabled
          : true;
    this.startedIn = startable ? wanted : "default";
    return this.startedIn;
  }

  /** A client's `session/set_mode`: only a mode the session offers. */
  async setMode(modeId: string, claude: ClaudeControls | undefined): Promise<void> {
    if (!isPermissionMode(modeId) || !this.availableModeIds().has(modeId) || modeId === "dontAsk") {
      throw new InvalidParamsError(`Mode "${modeId}" is not available in this session.`, {
        modeId,
      });
    }
    await claude?.setPermissionMode(modeId);
    this.chosen.add("mode");
    await this.modeChanged(modeId);
  }

  /** Claude Code (or a plan-mode choice) changed the mode: record and publish it. */
  /**
   * Claude Code runs `model` (a resolved id, an alias or a name) after a change the
   * client did not make (`/model` in the chat, a fallback): the model option follows.
   */
  async modelReported(model: string): Promise<void> {
    const wanted = model.trim().toLowerCase();
    const current = currentModelInfo(this.state, this.models);
    const names = [this.state.model, current?.value, current?.resolvedModel];
    if (!wanted || names.some((name) => name?.toLowerCase() === wanted)) return;
    // Claude Code runs whatever text `/model` named: only a model id is echoed.
    const accepted = acceptedModel(model.trim(), this.models);
    if (!accepted) {
      log.warn("Claude Code reports a model that is not a model id; the model option stays");
      return;
    }
    this.state.model = accepted;
    await this.publish.optionsChanged(this.options());
  }

  /**
   * The provider changed: `models` are offered from now on (its gateway's, or Claude
   * Code's). A model the client chose that the new list does not offer goes back to the
   * model Claude Code runs by itself: the new provider may not serve it.
   */
  async offerModels(models: readonly ModelInfo[]): Promise<void> {
    const options = JSON.stringify(this.options());
    this.models = models;
    this.modelsKnown = models.length > 0;
    this.ownModel = this.shownModel(this.init.ownModel);
    if (!models.some((model) => model.value === this.state.model)) {
      this.state.model = this.ownModel;
      this.chosen.delete("model");
    }
    if (JSON.stringify(this.options()) !== options) {
      await this.publish.optionsChanged(this.options());
    }
  }

  /** After a turn: asks Claude Code which model it runs, and follows it (`modelReported`). */
  async followModel(claude: { currentModel(): Promise<string> }): Promise<void> {
    try {
      const model = await withTimeout(claude.currentModel(), MODEL_CHECK_TIMEOUT_MS, "model check");
      await this.modelReported(model);
    } catch (error) {
      log.debug("could not follow Claude Code's model", error);
    }
  }

  async modeChanged(mode: PermissionMode): Promise<void> {
    if (this.state.mode === mode) return;
    this.state.mode = mode;
    await this.publish.modeChanged(mode);
    await this.publish.optionsChanged(this.options());
  }

  /** A client's `session/set_config_option`; returns the full new option list. */
  async setOption(
    configId: string,
    value: string | boolean,
    claude: ClaudeControls | undefined,
  ): Promise<SessionConfigOption[]> {
    switch (configId) {
      case CONFIG_IDS.mode:
        await this.setMode(this.stringValue(configId, value), claude);
        return this.options();
      case CONFIG_IDS.model:
        await this.setModel(this.stringValue(configId, value), claude);
        break;
      case CONFIG_IDS.effort:
        await this.setEffort(this.stringValue(configId, value), claude);
        break;
      case CONFIG_IDS.fastMode:
        await this.setFastMode(value, claude);
        break;
      default:
        throw new InvalidParamsError(`Unknown config option "${configId}".`, { configId });
    }
    await this.publish.optionsChanged(this.options());
    return this.options();
  }

  private stringValue(configId: string, value: string | boolean): string {
    if (typeof value !== "string") {
      throw new InvalidParamsError(`Config option "${configId}" takes a value id.`, { configId });
    }
    return value;
  }

  /** A model of Claude Code's list, or one the session offers beside it (unlistedModels). */
  private async setModel(value: string, claude: ClaudeControls | undefined): Promise<void> {
    const listed = resolveModelValue(value, this.models);
    const model =
      listed?.value ?? unlistedModels(this.state, this.context()).find((v) => v === value);
    if (!model) throw new InvalidParamsError(`Unknown model "${value}".`, { value });
    await claude?.setModel(model === DEFAULT_MODEL ? undefined : model);
    this.state.model = model;
    this.chosen.add("model");
    // A model without auto support moves the session out of Auto, visibly.
    if (this.state.mode === "auto" && !isModeAvailable("auto", this.conditions())) {
      await claude?.setPermissionMode("default");
      await this.modeChanged("default");
    }
    if (!supportedEfforts(listed).includes(this.state.effort as never))
      this.state.effort = DEFAULT_EFFORT;
    if (!listed?.supportsFastMode) this.state.fastMode = false;
  }

  private async setEffort(value: string, claude: ClaudeControls | undefined): Promise<void> {
    const levels = supportedEfforts(currentModelInfo(this.state, this.models));
    const level = levels.find((l) => l === value);
    if (value !== DEFAULT_EFFORT && !level) {
      throw new InvalidParamsError(`Effort "${value}" is not supported by this model.`, { value });
    }
    await claude?.applyFlagSettings({ effortLevel: level ?? null });
    this.state.effort = level ?? DEFAULT_EFFORT;
  }

  private async setFastMode(
    value: string | boolean,
    claude: ClaudeControls | undefined,
  ): Promise<void> {
    const on =
      value === true || value === "on"
        ? true
        : value === false || value === "off"
          ? false
          : undefined;
    if (on === undefined || !currentModelInfo(this.state, this.models)?.supportsFastMode) {
      throw new InvalidParamsError("Fast mode is not available with this value or model.", {
        value,
      });
    }
    await claude?.applyFlagSettings({ fastMode: on });
    this.state.fastMode = on;
  }
}
