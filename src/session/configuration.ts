import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";
import type { ModelInfo, PermissionMode } from "../claude/types.js";
import { InvalidParamsError } from "../errors.js";
import {
  CONFIG_IDS,
  configOptions,
  currentModelInfo,
  DEFAULT_EFFORT,
  DEFAULT_MODEL,
  resolveModelValue,
  supportedEfforts,
  type SessionSettingsState,
} from "./config-options.js";
import { isModeAvailable, isPermissionMode, modeState, type ModeConditions } from "./modes.js";

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
  autoDisabled: boolean;
  bypassAllowed: boolean;
  booleanOptions: boolean;
}

/**
 * The session's mode, model, effort and fast mode: validated, applied to Claude Code
 * through the SDK, and published to the client.
 */
export class SessionConfiguration {
  private readonly state: SessionSettingsState;
  private models: readonly ModelInfo[];
  private startedIn: PermissionMode = "default";

  constructor(
    private readonly init: ConfigurationInit,
    private readonly publish: ConfigurationPublisher,
  ) {
    this.state = { ...init.state };
    this.models = init.models;
  }

  get current(): Readonly<SessionSettingsState> {
    return this.state;
  }

  /** The model as Claude Code's `model` option takes it (undefined: its default). */
  get claudeModel(): string | undefined {
    return this.state.model === DEFAULT_MODEL ? undefined : this.state.model;
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
      modelSupportsAuto: currentModelInfo(this.state, this.models)?.supportsAutoMode ?? false,
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
    return configOptions(this.state, {
      models: this.models,
      conditions: this.conditions(),
      booleanOptions: this.init.booleanOptions,
    });
  }

  setModels(models: readonly ModelInfo[]): void {
    this.models = models;
  }

  /**
   * The starting model and mode, once the model list is known. A mode the session
   * cannot offer (auto on a model without it) falls back to `default`.
   */
  async initialize(
    model: string,
    mode: PermissionMode,
    setClaudeMode: (mode: PermissionMode) => Promise<void>,
  ): Promise<void> {
    this.state.model = model;
    const usable =
      mode === "dontAsk" || isModeAvailable(mode, this.conditions()) ? mode : "default";
    this.state.mode = usable;
    if (usable !== this.startedIn) await setClaudeMode(usable);
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
    this.state.model = resolveModelValue(model, this.models)?.value ?? model;
    await this.publish.optionsChanged(this.options());
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

  private async setModel(value: string, claude: ClaudeControls | undefined): Promise<void> {
    const model = resolveModelValue(value, this.models);
    if (!model) throw new InvalidParamsError(`Unknown model "${value}".`, { value });
    await claude?.setModel(model.value === DEFAULT_MODEL ? undefined : model.value);
    this.state.model = model.value;
    // A model without auto support moves the session out of Auto, visibly.
    if (this.state.mode === "auto" && !isModeAvailable("auto", this.conditions())) {
      await claude?.setPermissionMode("default");
      await this.modeChanged("default");
    }
    if (!supportedEfforts(model).includes(this.state.effort as never))
      this.state.effort = DEFAULT_EFFORT;
    if (!model.supportsFastMode) this.state.fastMode = false;
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
