import { log } from "../logger.js";

/** How Claude's thinking comes back from the API: its summary, or no text at all. */
export type ThinkingDisplay = "summarized" | "omitted";

/**
 * Shown by default: recent models otherwise send their thinking without its text, and a
 * client has nothing to show for it.
 */
export const DEFAULT_THINKING_DISPLAY: ThinkingDisplay = "summarized";

/** The agent's switch for the display, as the published adapter reads it. */
export const THINKING_DISPLAY_VARIABLE = "CLAUDE_CODE_THINKING_DISPLAY";
/** Claude Code's thinking budget: 0 turns thinking off where the model allows it. */
export const THINKING_TOKENS_VARIABLE = "MAX_THINKING_TOKENS";

const logged = new Set<string>();
/** Each wrong value is said once, not at every session's start. */
function ignoring(name: string, expected: string, value: string): void {
  const line = `Ignoring ${name}: expected ${expected}, got '${value}'.`;
  if (logged.has(line)) return;
  logged.add(line);
  log.error(line);
}

/** The thinking display the agent's environment asks for, else the default. */
export function thinkingDisplay(env: NodeJS.ProcessEnv): ThinkingDisplay {
  const value = env[THINKING_DISPLAY_VARIABLE];
  if (value === undefined || value === "") return DEFAULT_THINKING_DISPLAY;
  if (value === "summarized" || value === "omitted") return value;
  ignoring(THINKING_DISPLAY_VARIABLE, "'summarized' or 'omitted'", value);
  return DEFAULT_THINKING_DISPLAY;
}

/**
 * The environment without a thinking budget that is not a non-negative integer: Claude Code
 * would read such a value as 0 and turn thinking off.
 */
export function withValidThinkingBudget<T extends NodeJS.ProcessEnv>(env: T): T {
  const value = env[THINKING_TOKENS_VARIABLE];
  if (value === undefined || value === "" || /^\d+$/.test(value.trim())) return env;
  ignoring(THINKING_TOKENS_VARIABLE, "a non-negative integer", value);
  const { [THINKING_TOKENS_VARIABLE]: _dropped, ...rest } = env;
  return rest as T;
}

/** What the session's thinking option picks: shown (summarized), hidden (omitted), or none. */
export type ThinkingChoice = ThinkingDisplay | "off";

/** The client's own SDK options that decide thinking at Claude Code's start. */
export interface ClientThinking {
  thinking?: { type: "adaptive" | "enabled" | "disabled"; display?: ThinkingDisplay };
  maxThinkingTokens?: number;
}

/** Whether the client's own SDK options decide thinking (over the settings' keys). */
export function clientSetsThinking(client: ClientThinking = {}): boolean {
  return client.thinking !== undefined || client.maxThinkingTokens !== undefined;
}

/**
 * The thinking a session starts with: the client's own options, else a budget of 0 in the
 * environment (thinking off), else the display the environment asks for.
 */
export function initialThinking(
  env: NodeJS.ProcessEnv,
  client: ClientThinking = {},
): ThinkingChoice {
  const { thinking, maxThinkingTokens } = client;
  if (thinking?.type === "disabled" || maxThinkingTokens === 0) return "off";
  if (thinking) return thinking.display ?? thinkingDisplay(env);
  if (maxThinkingTokens === undefined && budgetTurnsThinkingOff(env)) return "off";
  return thinkingDisplay(env);
}

/** Whether this environment's thinking budget is 0, which starts Claude Code thinking off. */
export function budgetTurnsThinkingOff(env: Readonly<Record<string, string | undefined>>): boolean {
  return env[THINKING_TOKENS_VARIABLE]?.trim() === "0";
}

/**
 * The budget that turns thinking back on. Claude Code keeps thinking off for a process that
 * started with it off (a budget of 0, `alwaysThinkingEnabled: false`) unless it is given a
 * budget, so one is always given: the user's own, else one above any model's ceiling, which
 * Claude Code lowers to the ceiling, its default (31999 on claude-sonnet-4-5 in 2.1.336).
 * A model with adaptive thinking takes any budget as "on".
 */
export function thinkingOnBudget(env: NodeJS.ProcessEnv, client: ClientThinking = {}): number {
  const own = client.maxThinkingTokens ?? Number(env[THINKING_TOKENS_VARIABLE]?.trim() || NaN);
  return Number.isInteger(own) && own > 0 ? own : ABOVE_ANY_CEILING;
}
const ABOVE_ANY_CEILING = 1_000_000;

/**
 * The models whose thinking Claude Code 2.1.336 turns off when asked (a budget of 0 then
 * sends `thinking: {type: "disabled"}`). It cannot on the others: on the models it lists
 * itself (claude-opus-5-5, claude-sonnet-5-5, claude-haiku-5-5, claude-fable-5-2) a budget
 * of 0 only hides the thinking. Measured, one model at a time, against the scripted API.
 */
const THINKING_CAN_BE_OFF = new Set([
  "claude-opus-4-5",
  "claude-opus-4-6",
  "claude-opus-4-7",
  "claude-opus-4-8",
  "claude-opus-5",
  "claude-sonnet-4-5",
  "claude-sonnet-4-6",
  "claude-sonnet-5",
  "claude-haiku-4-5",
]);

/** Whether Claude Code can turn thinking off for this model id (dated and provider ids too). */
export function thinkingCanBeOff(model: string | undefined): boolean {
  const family = model
    ?.toLowerCase()
    .match(/claude-(?:opus|sonnet|haiku)-\d{1,2}(?:-\d{1,2}(?!\d))?/);
  return !!family && THINKING_CAN_BE_OFF.has(family[0]);
}
