import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";
import type { ThinkingDisplay } from "../../claude/thinking.js";
import type { ModelInfo, PermissionMode } from "../../claude/types.js";
import type { UltracodeReport } from "../../claude/ultracode.js";
import type { StartReport } from "../../claude/query.js";
import { InvalidParamsError } from "../../errors.js";
import { log } from "../../logger.js";
import { isPermissionMode } from "../../permissions/modes.js";
import { withTimeout } from "../../util/timeout.js";
import {
  chosenEffort,
  chosenFastMode,
  chosenModel,
  CONFIG_IDS,
  configOptions,
  currentModelInfo,
  DEFAULT_EFFORT,
  DEFAULT_MODEL,
  supportedEfforts,
  valueId,
  type ConfigContext,
  type SessionSettingsState,
} from "./config-options.js";
import type { ConfigurationInit } from "./initial-state.js";
import { isModeAvailable, modeState, type ModeConditions } from "./modes.js";
import { acceptedModel, shownModel } from "./model-ids.js";
import { applyThinking, runModelId } from "./thinking.js";
import { UltracodeSetting } from "./ultracode.js";

/** How long reading Claude Code's current model after a turn may take. */
const MODEL_CHECK_TIMEOUT_MS = 2_000;

/** How configuration changes reach the running Claude Code process. */
export interface ClaudeControls {
  setPermissionMode(mode: PermissionMode): Promise<void>;
  setModel(model: string | undefined): Promise<void>;
  applyFlagSettings(settings: Record<string, unknown>): Promise<void>;
  setThinking(budget: number, display?: ThinkingDisplay): Promise<void>;
  ultracode(): Promise<UltracodeReport | undefined>;
}

/** How configuration changes reach the client. */
export interface ConfigurationPublisher {
  modeChanged(mode: string): Promise<void>;
  optionsChanged(options: SessionConfigOption[]): Promise<void>;
}

/**
 * The session's mode, model, effort, fast mode, thinking and ultracode: validated, applied to
 * Claude Code through the SDK, and published to the client.
 */
export class SessionConfiguration {
  private readonly state: SessionSettingsState;
  private models: readonly ModelInfo[];
  /** Whether `models` is a list Claude Code reported (now or at an earlier start). */
  private modelsKnown: boolean;
  private startedIn: PermissionMode = "default";
  /** `init.ownModel` as the model option shows it (`assume`, `adopt`). */
  private ownModel = DEFAULT_MODEL;
  /** What the client set itself (its SDK options' thinking too): start-up reports keep it. */
  private readonly chosen = new Set<"mode" | "model" | "thinking">();
  /** Counts the client's model picks: a report read before the latest one is stale. */
  private modelPicks = 0;
  private readonly ultracode = new UltracodeSetting();

  constructor(
    private readonly init: ConfigurationInit,
    private readonly publish: ConfigurationPublisher,
  ) {
    this.state = { ...init.state };
    this.models = init.models;
    this.modelsKnown = init.models.length > 0;
    if (init.clientThinking) this.chosen.add("thinking");
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

  /** Flag settings that carry effort, fast mode and ultracode into a (new) Claude process. */
  flagSettings(): Record<string, unknown> {
    return {
      ...(this.state.effort !== DEFAULT_EFFORT ? { effortLevel: this.state.effort } : {}),
      ...(this.state.fastMode ? { fastMode: true } : {}),
      ...this.ultracode.flags(),
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
      ...(this.ultracode.available ? { ultracode: { on: this.ultracode.on } } : {}),
    };
  }

  /**
   * Before Claude Code has reported its models (session/new answers first, and its process
   * starts after this): the model it runs by itself as the known models resolve it, and
   * the mode the process starts in.
   */
  assume(): void {
    this.ownModel = shownModel(this.init.ownModel, this.models);
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
   * cannot offer, such as auto on a model without it, falls back to `default`), as are
   * ultracode and thinking off as its settings say; the client hears what changed, once.
   */
  async adopt(
    models: readonly ModelInfo[],
    wantedMode: PermissionMode,
    setClaudeMode: (mode: PermissionMode) => Promise<void>,
    reports: StartReport = {},
  ): Promise<void> {
    const mode = this.state.mode;
    const options = JSON.stringify(this.options());
    this.ultracode.reported(reports.ultracode);
    if (reports.thinkingOff && !this.chosen.has("thinking")) this.state.thinking = "off";
    this.models = models;
    this.modelsKnown = true;
    this.ownModel = shownModel(this.init.ownModel, this.models);
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
    this.ownModel = shownModel(this.init.ownModel, this.models);
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
    const picks = this.modelPicks;
    try {
      const model = await withTimeout(claude.currentModel(), MODEL_CHECK_TIMEOUT_MS, "model check");
      // The client picked a model while the answer was on its way: the pick is newer.
      if (this.modelPicks !== picks) return;
      await this.modelReported(model);
    } catch (error) {
      log.debug("could not follow Claude Code's model", error);
    }
  }

  /** Claude Code (or a plan-mode choice) changed the mode: record and publish it. */
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
        await this.setMode(valueId(configId, value), claude);
        return this.options();
      case CONFIG_IDS.model:
        await this.setModel(valueId(configId, value), claude);
        break;
      case CONFIG_IDS.effort:
        await this.setEffort(valueId(configId, value), claude);
        break;
      case CONFIG_IDS.fastMode:
        await this.setFastMode(value, claude);
        break;
      case CONFIG_IDS.ultracode:
        await this.ultracode.set(value, claude);
        break;
      case CONFIG_IDS.thinking:
        this.state.thinking = await applyThinking(
          valueId(configId, value),
          runModelId(this.state.model, currentModelInfo(this.state, this.models)),
          this.init.thinkingBudget,
          claude,
        );
        this.chosen.add("thinking");
        break;
      default:
        throw new InvalidParamsError(`Unknown config option "${configId}".`, { configId });
    }
    await this.publish.optionsChanged(this.options());
    return this.options();
  }

  /** A model the client picked: what the new model does not support goes back to its default. */
  private async setModel(value: string, claude: ClaudeControls | undefined): Promise<void> {
    const { model, listed } = chosenModel(value, this.state, this.context());
    this.modelPicks += 1;
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
    // Whether ultracode can run depends on the model; Claude Code keeps the request.
    this.ultracode.reported(await claude?.ultracode().catch(() => undefined));
  }

  private async setEffort(value: string, claude: ClaudeControls | undefined): Promise<void> {
    const level = chosenEffort(value, this.state, this.models);
    // Claude Code turns ultracode off on an effort change that does not carry it.
    await claude?.applyFlagSettings({ effortLevel: level ?? null, ...this.ultracode.flags() });
    this.state.effort = level ?? DEFAULT_EFFORT;
  }

  private async setFastMode(value: string | boolean, claude?: ClaudeControls): Promise<void> {
    const on = chosenFastMode(value, this.state, this.models);
    await claude?.applyFlagSettings({ fastMode: on });
    this.state.fastMode = on;
  }
}
