import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import {
  thinkingCanBeOff,
  type ThinkingChoice,
  type ThinkingDisplay,
} from "../../claude/thinking.js";
import type { ModelInfo } from "../../claude/types.js";
import { InvalidParamsError } from "../../errors.js";

// The thinking option: shown (summarized), hidden (omitted), or off where the model can
// think without it. Claude Code keeps the choice across model changes.

/** The thinking option's values, as the client sees them; each is defined here once. */
const THINKING_VALUES: Record<ThinkingChoice, { name: string; description: string }> = {
  summarized: { name: "Shown", description: "Claude thinks, and its thinking is shown summarized" },
  omitted: { name: "Hidden", description: "Claude thinks without showing its thinking" },
  off: { name: "Off", description: "No extended thinking" },
};

/** The model as Claude Code runs it: its resolved id where Claude Code names one. */
export function runModelId(value: string, model: ModelInfo | undefined): string {
  return model?.resolvedModel ?? model?.value ?? value;
}

/**
 * The thinking as the model has it: Claude Code turns thinking "off" into hidden thinking
 * on a model that cannot think without it, and turns it off again on one that can.
 */
function shownThinking(thinking: ThinkingChoice, model: string): ThinkingChoice {
  return thinking === "off" && !thinkingCanBeOff(model) ? "omitted" : thinking;
}

/** Shown, hidden, and off where the model allows it: a select for every client. */
export function thinkingOption(
  id: string,
  thinking: ThinkingChoice,
  model: string,
): SessionConfigOption {
  const values: ThinkingChoice[] = ["summarized", "omitted"];
  if (thinkingCanBeOff(model)) values.push("off");
  return {
    id,
    name: "Thinking",
    category: "model_config",
    type: "select",
    currentValue: shownThinking(thinking, model),
    options: values.map((value) => ({ value, ...THINKING_VALUES[value] })),
  };
}

/** The thinking a client's value names, if the current model offers it. */
function chosenThinking(value: string, model: string): ThinkingChoice {
  if (value === "summarized" || value === "omitted") return value;
  if (value === "off" && thinkingCanBeOff(model)) return value;
  // The value is the client's: it goes in the error's data (cut there), not in its message.
  throw new InvalidParamsError("This thinking value is not available with this model.", { value });
}

/**
 * The client's choice, applied to Claude Code first: off is a budget of 0, and on is always a
 * budget (with the display), which Claude Code needs after an off start.
 */
export async function applyThinking(
  value: string,
  model: string,
  onBudget: number,
  claude: { setThinking(budget: number, display?: ThinkingDisplay): Promise<void> } | undefined,
): Promise<ThinkingChoice> {
  const thinking = chosenThinking(value, model);
  if (thinking === "off") await claude?.setThinking(0);
  else await claude?.setThinking(onBudget, thinking);
  return thinking;
}
