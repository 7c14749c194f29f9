import type { SessionConfigOption, SessionConfigSelectOption } from "@agentclientprotocol/sdk";
import type { ThinkingChoice } from "../../claude/thinking.js";
import type { EffortLevel, ModelInfo, PermissionMode } from "../../claude/types.js";
import { InvalidParamsError } from "../../errors.js";
import { cleanSingleLine } from "../../util/text.js";
import { availableModes, type ModeConditions } from "./modes.js";
import { runModelId, thinkingOption } from "./thinking.js";

// Config option ids are a wire fact (acp/config-ids.ts); the options are built here.
export { CONFIG_IDS } from "../../acp/config-ids.js";
import { CONFIG_IDS } from "../../acp/config-ids.js";

/** The model option value meaning "Claude Code's default model". */
export const DEFAULT_MODEL = "default";
/** The effort option value meaning "the model's default effort". */
export const DEFAULT_EFFORT = "default";

export type EffortChoice = EffortLevel | typeof DEFAULT_EFFORT;

/** What the session runs with, as the client can change it. */
export interface SessionSettingsState {
  mode: PermissionMode;
  /** A model option value (an alias such as "sonnet", or a full model id). */
  model: string;
  effort: EffortChoice;
  fastMode: boolean;
  /** What the client (or the start) chose; `shownThinking` says what the model makes of it. */
  thinking: ThinkingChoice;
}

export interface ConfigContext {
  models: readonly ModelInfo[];
  /** The model Claude Code runs unless the client picks another: offered even when `models` lacks it. */
  ownModel: string;
  conditions: ModeConditions;
  /** The client renders `type: "boolean"` options (clientCapabilities.session.configOptions.boolean). */
  booleanOptions: boolean;
  /** Ultracode, while Claude Code can turn it on: whether it is on. */
  ultracode?: { on: boolean } | undefined;
}

const EFFORT_NAMES: Record<EffortLevel, string> = {
  low: "Low",
  medium: "Medium",
  high: "High",
  xhigh: "Extra high",
  max: "Max",
};

/** The model option a value names: its value, its resolved id, or its display name. */
export function resolveModelValue(
  value: string,
  models: readonly ModelInfo[],
): ModelInfo | undefined {
  const wanted = value.trim().toLowerCase();
  return (
    models.find((m) => m.value.toLowerCase() === wanted) ??
    models.find((m) => m.resolvedModel?.toLowerCase() === wanted) ??
    models.find((m) => m.displayName.toLowerCase() === wanted)
  );
}

export function currentModelInfo(
  state: SessionSettingsState,
  models: readonly ModelInfo[],
): ModelInfo | undefined {
  return resolveModelValue(state.model, models);
}

export function supportedEfforts(model: ModelInfo | undefined): EffortLevel[] {
  return model?.supportsEffort ? (model.supportedEffortLevels ?? []) : [];
}

/** The model values offered beside Claude Code's list: its own model and the current one. */
export function unlistedModels(state: SessionSettingsState, context: ConfigContext): string[] {
  const values = new Set([context.ownModel, state.model]);
  return [...values].filter((value) => !context.models.some((m) => m.value === value));
}

/**
 * The listed model Claude Code's default entry runs now (its resolvedModel names another
 * entry), or undefined. It goes on the default choice as `_meta.claudeCode.resolvedValue`, so
 * a client that shows models by name can show it (AIR's recommendedValue).
 */
function defaultResolvesTo(models: readonly ModelInfo[]): string | undefined {
  const own = models.find((m) => m.value === DEFAULT_MODEL)?.resolvedModel?.toLowerCase();
  if (!own) return undefined;
  const listed = models.filter((m) => m.value !== DEFAULT_MODEL);
  return (
    listed.find((m) => m.value.toLowerCase() === own) ??
    listed.find((m) => m.resolvedModel?.toLowerCase() === own)
  )?.value;
}

function modelOptions(
  state: SessionSettingsState,
  context: ConfigContext,
): SessionConfigSelectOption[] {
  const resolvedValue = defaultResolvesTo(context.models);
  return [
    ...context.models.map((m) => ({
      value: m.value,
      name: cleanSingleLine(m.displayName) || m.value,
      ...(m.description ? { description: cleanSingleLine(m.description) } : {}),
      ...(m.value === DEFAULT_MODEL && resolvedValue
        ? { _meta: { claudeCode: { resolvedValue } } }
        : {}),
    })),
    ...unlistedModels(state, context).map((value) => ({
      value,
      name: cleanSingleLine(value) || value,
    })),
  ];
}

/** The full, ordered list of config options (array order is significant in ACP). */
export function configOptions(
  state: SessionSettingsState,
  context: ConfigContext,
): SessionConfigOption[] {
  const model = currentModelInfo(state, context.models);
  const options: SessionConfigOption[] = [
    {
      id: CONFIG_IDS.mode,
      name: "Mode",
      category: "mode",
      type: "select",
      currentValue: state.mode,
      options: availableModes(state.mode, context.conditions).map((mode) => ({
        value: mode.id,
        name: mode.name,
        ...(mode.description ? { description: mode.description } : {}),
      })),
    },
    {
      id: CONFIG_IDS.model,
      name: "Model",
      category: "model",
      type: "select",
      currentValue: state.model,
      options: modelOptions(state, context),
    },
  ];
  const efforts = supportedEfforts(model);
  if (efforts.length) {
    options.push({
      id: CONFIG_IDS.effort,
      name: "Effort",
      category: "thought_level",
      type: "select",
      currentValue: efforts.includes(state.effort as EffortLevel) ? state.effort : DEFAULT_EFFORT,
      options: [
        { value: DEFAULT_EFFORT, name: "Default", description: "The model's default effort" },
        ...efforts.map((level) => ({ value: level, name: EFFORT_NAMES[level] })),
      ],
    });
  }
  if (model?.supportsFastMode) {
    const fast = { id: CONFIG_IDS.fastMode, name: "Fast mode" };
    const description = "Faster output at a higher price";
    options.push(toggle({ ...fast, description }, state.fastMode, context.booleanOptions));
  }
  if (context.ultracode) {
    const ultracode = { id: CONFIG_IDS.ultracode, name: "Ultracode" };
    const description = "Dynamic workflows on every task, at any effort level";
    options.push(
      toggle({ ...ultracode, description }, context.ultracode.on, context.booleanOptions),
    );
  }
  options.push(thinkingOption(CONFIG_IDS.thinking, state.thinking, runModelId(state.model, model)));
  return options;
}

/** What a client's value for an on/off option says: a boolean, or the select's "on"/"off". */
export function toggleValue(value: string | boolean): boolean | undefined {
  if (value === true || value === "on") return true;
  if (value === false || value === "off") return false;
  return undefined;
}

/** An on/off option: a boolean for clients that show those, else an Off/On select. */
function toggle(
  named: { id: string; name: string; description: string },
  on: boolean,
  booleanOptions: boolean,
): SessionConfigOption {
  const common = { ...named, category: "model_config" };
  return booleanOptions
    ? { ...common, type: "boolean", currentValue: on }
    : {
        ...common,
        type: "select",
        currentValue: on ? "on" : "off",
        options: [
          { value: "off", name: "Off" },
          { value: "on", name: "On" },
        ],
      };
}

/** A client's value for an option that takes a value id. */
export function valueId(configId: string, value: string | boolean): string {
  if (typeof value !== "string") {
    throw new InvalidParamsError(`Config option "${configId}" takes a value id.`, { configId });
  }
  return value;
}

/**
 * The model a client's value names: one of Claude Code's list (`listed`), or one the
 * session offers beside it (unlistedModels).
 */
export function chosenModel(
  value: string,
  state: SessionSettingsState,
  context: ConfigContext,
): { model: string; listed: ModelInfo | undefined } {
  const listed = resolveModelValue(value, context.models);
  const model = listed?.value ?? unlistedModels(state, context).find((v) => v === value);
  if (!model) throw new InvalidParamsError(`Unknown model "${value}".`, { value });
  return { model, listed };
}

/** The effort a client's value names, if the current model has it; none: its default. */
export function chosenEffort(
  value: string,
  state: SessionSettingsState,
  models: readonly ModelInfo[],
): EffortLevel | undefined {
  const levels = supportedEfforts(currentModelInfo(state, models));
  const level = levels.find((l) => l === value);
  if (value !== DEFAULT_EFFORT && !level) {
    throw new InvalidParamsError(`Effort "${value}" is not supported by this model.`, { value });
  }
  return level;
}

/** Fast mode on or off, as a client's value says, if the current model has it. */
export function chosenFastMode(
  value: string | boolean,
  state: SessionSettingsState,
  models: readonly ModelInfo[],
): boolean {
  const on = toggleValue(value);
  if (on === undefined || !currentModelInfo(state, models)?.supportsFastMode) {
    throw new InvalidParamsError("Fast mode is not available with this value or model.", {
      value,
    });
  }
  return on;
}
