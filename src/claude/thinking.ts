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
