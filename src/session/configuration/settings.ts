import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { DEFAULT_SETTING_SOURCES } from "../../claude/client-options/options.js";
import type { PermissionMode, SettingSource } from "../../claude/types.js";
import { log } from "../../logger.js";
import { modeFromSettings } from "./modes.js";

/** The few settings the adapter reads itself, before Claude Code starts. */
export interface AdapterSettings {
  defaultMode: PermissionMode;
  autoDisabled: boolean;
  bypassDisabled: boolean;
  model?: string;
  /**
   * `env.ANTHROPIC_MODEL` of the last file that sets it: Claude Code applies a settings
   * file's `env` over its own environment, so this wins over the agent's (own-model.ts).
   */
  envModel?: string;
}

// Only the keys we read; everything else in the file is Claude Code's business.
const settingsFile = z.looseObject({
  model: z.string().optional().catch(undefined),
  env: z
    .looseObject({ ANTHROPIC_MODEL: z.string().optional().catch(undefined) })
    .optional()
    .catch(undefined),
  disableAutoMode: z.unknown().optional(),
  permissions: z
    .looseObject({
      defaultMode: z.unknown().optional(),
      disableAutoMode: z.unknown().optional(),
      disableBypassPermissionsMode: z.unknown().optional(),
    })
    .optional()
    .catch(undefined),
});
type SettingsFile = z.infer<typeof settingsFile>;

/** The setting sources in Claude Code's order: later files win. */
export const SETTING_SOURCES = DEFAULT_SETTING_SOURCES;

function settingsPath(source: SettingSource, cwd: string, env: NodeJS.ProcessEnv): string {
  switch (source) {
    case "user":
      return join(env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), ".claude"), "settings.json");
    case "project":
      return join(cwd, ".claude", "settings.json");
    case "local":
      return join(cwd, ".claude", "settings.local.json");
    default:
      return source satisfies never;
  }
}

/** The files of the chosen sources, in Claude Code's order whatever order they come in. */
export function settingsPaths(
  cwd: string,
  env: NodeJS.ProcessEnv,
  sources: readonly SettingSource[] = SETTING_SOURCES,
): string[] {
  return SETTING_SOURCES.filter((source) => sources.includes(source)).map((source) =>
    settingsPath(source, cwd, env),
  );
}

async function readSettings(path: string): Promise<SettingsFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed = settingsFile.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // reported below
  }
  log.warn(`ignoring settings file that is not a JSON object: ${path}`);
  return undefined;
}

/**
 * The files of `sources` only (the setting sources Claude Code is given; default all).
 * `permissions.defaultMode` decides the initial mode; an invalid value is logged and
 * the session starts in `default`.
 */
export async function loadAdapterSettings(
  cwd: string,
  env: NodeJS.ProcessEnv,
  sources: readonly SettingSource[] = SETTING_SOURCES,
): Promise<AdapterSettings> {
  const settings: AdapterSettings = {
    defaultMode: "default",
    autoDisabled: false,
    bypassDisabled: false,
  };
  let mode: unknown;
  let modeSource: string | undefined;
  for (const path of settingsPaths(cwd, env, sources)) {
    const file = await readSettings(path);
    if (!file) continue;
    if (file.permissions?.defaultMode !== undefined) {
      mode = file.permissions.defaultMode;
      modeSource = path;
    }
    if (file.permissions?.disableAutoMode === "disable" || file.disableAutoMode === "disable") {
      settings.autoDisabled = true;
    }
    if (file.permissions?.disableBypassPermissionsMode === "disable")
      settings.bypassDisabled = true;
    if (file.model) settings.model = file.model;
    if (file.env?.ANTHROPIC_MODEL !== undefined) settings.envModel = file.env.ANTHROPIC_MODEL;
  }
  if (mode !== undefined) {
    const parsed = modeFromSettings(mode);
    if (parsed) settings.defaultMode = parsed;
    else
      log.warn(
        `invalid permissions.defaultMode ${JSON.stringify(mode)} in ${modeSource}; using default`,
      );
  }
  return settings;
}
