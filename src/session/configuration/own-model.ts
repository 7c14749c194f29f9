import type { AdapterSettings } from "./settings.js";

/**
 * The model Claude Code runs when no `model` option (its `--model`) names one, by its own
 * precedence: `ANTHROPIC_MODEL`, then the settings' `model`; undefined is its default
 * model. A settings file's `env` is applied over the environment Claude Code starts with,
 * so its `ANTHROPIC_MODEL` wins over the agent's, and an empty one hides it.
 */
export function claudeOwnModel(
  settings: Pick<AdapterSettings, "model" | "envModel">,
  env: NodeJS.ProcessEnv,
): string | undefined {
  return (settings.envModel ?? env.ANTHROPIC_MODEL) || settings.model || undefined;
}
