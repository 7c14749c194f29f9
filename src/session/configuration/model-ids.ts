import type { ModelInfo, UserContentBlock } from "../../claude/types.js";
import { InvalidParamsError } from "../../errors.js";
import { log } from "../../logger.js";
import { DEFAULT_MODEL, resolveModelValue } from "./config-options.js";

/** The longest model id the agent passes on or shows: Bedrock ARNs run to about 110. */
export const MODEL_ID_MAX_LENGTH = 200;

/**
 * The form of a model id the session does not offer but Claude Code may run: aliases
 * (`sonnet`, `opus[1m]`, `opusplan`), API ids (`claude-opus-4-1-20250805`,
 * `claude-sonnet-4-5[1m]`), Bedrock ids and ARNs (`us.anthropic.claude-sonnet-4-20250514-v1:0`,
 * `arn:aws:bedrock:…:application-inference-profile/…`) and Vertex ids
 * (`claude-sonnet-4@20250514`).
 */
const MODEL_ID = new RegExp(`^[A-Za-z0-9._:/@\\[\\]-]{1,${MODEL_ID_MAX_LENGTH}}$`);

/** Whether `value` has the form of a model id (no spaces, no control characters). */
export function isModelId(value: string): boolean {
  return MODEL_ID.test(value);
}

/** The model option value a model names: one the session offers, or an id of the form. */
export function acceptedModel(value: string, models: readonly ModelInfo[]): string | undefined {
  return resolveModelValue(value, models)?.value ?? (isModelId(value) ? value : undefined);
}

/** The model a `/model <model>` prompt (its last block, as Claude Code reads it) names. */
export function modelCommandArgument(content: readonly UserContentBlock[]): string | undefined {
  const last = content.at(-1);
  if (last?.type !== "text") return undefined;
  const argument = /^\/model\s+([\s\S]*)$/i.exec(last.text.trim())?.[1]?.trim();
  return argument || undefined;
}

/** Refuses a `/model` prompt naming no model: Claude Code would run and echo any text. */
export function checkModelCommand(
  content: readonly UserContentBlock[],
  models: readonly ModelInfo[],
): void {
  const model = modelCommandArgument(content);
  if (model === undefined || acceptedModel(model, models) !== undefined) return;
  throw new InvalidParamsError(
    `/model takes a model the session offers, or a model id of letters, digits and . _ : / @ [ ] -, ` +
      `at most ${MODEL_ID_MAX_LENGTH} characters; it was not sent.`,
    { length: model.length },
  );
}

/**
 * The model of the environment or a settings file as the model option shows it (a project's
 * file may hold anything): only a model id is shown, anything else as the default.
 */
export function shownModel(model: string | undefined, models: readonly ModelInfo[]): string {
  const accepted = model ? acceptedModel(model, models) : undefined;
  if (model && !accepted) {
    log.warn("ANTHROPIC_MODEL or the settings name a model that is not a model id; not shown");
  }
  return accepted ?? DEFAULT_MODEL;
}
