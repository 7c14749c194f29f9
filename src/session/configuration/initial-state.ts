import {
  type ClientThinking,
  clientSetsThinking,
  initialThinking,
  thinkingOnBudget,
} from "../../claude/thinking.js";
import type { EffortLevel, ModelInfo } from "../../claude/types.js";
import { DEFAULT_EFFORT, DEFAULT_MODEL, type SessionSettingsState } from "./config-options.js";
import { processMayBypass } from "./modes.js";
import { claudeOwnModel } from "./own-model.js";
import type { AdapterSettings } from "./settings.js";

/** What a session's configuration starts from. */
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
  /** The budget that turns thinking on (thinking.ts). */
  thinkingBudget: number;
  /** The client set thinking in its own SDK options: those decide the start, not settings. */
  clientThinking?: boolean;
}

/** What a new session's configuration is read from. */
export interface NewSessionSources {
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
  /** The client's own SDK options for thinking. */
  clientThinking?: ClientThinking;
}

/** A new session's: the defaults, the models known so far, the limits its settings set. */
export function initialConfiguration(session: NewSessionSources): ConfigurationInit {
  const { settings, env } = session;
  const claudeEnv = { ...env, ...session.clientEnv };
  return {
    state: {
      mode: "default",
      model: DEFAULT_MODEL,
      effort: session.effort ?? DEFAULT_EFFORT,
      fastMode: false,
      thinking: initialThinking(claudeEnv, session.clientThinking),
    },
    models: session.models,
    ownModel: claudeOwnModel(settings, claudeEnv),
    ...(session.model ? { clientModel: session.model } : {}),
    autoDisabled: settings.autoDisabled,
    bypassAllowed: processMayBypass(env, process.getuid?.()) && !settings.bypassDisabled,
    booleanOptions: session.booleanOptions,
    thinkingBudget: thinkingOnBudget(claudeEnv, session.clientThinking),
    ...(clientSetsThinking(session.clientThinking) ? { clientThinking: true } : {}),
  };
}
