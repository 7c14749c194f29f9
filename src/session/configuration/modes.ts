import type { SessionMode, SessionModeState } from "@agentclientprotocol/sdk";
import type { PermissionMode } from "../../claude/types.js";
import { isPermissionMode, MODE_CATALOG } from "../../permissions/modes.js";

/** The order modes are offered in. */
const OFFERED: readonly PermissionMode[] = [
  "default",
  "acceptEdits",
  "plan",
  "auto",
  "bypassPermissions",
];

export interface ModeConditions {
  /** The current model supports auto mode. */
  modelSupportsAuto: boolean;
  /** Settings disable auto mode (`permissions.disableAutoMode: "disable"`). */
  autoDisabled: boolean;
  /** This process may bypass permissions (`processMayBypass`) and settings allow it. */
  bypassAllowed: boolean;
}

export function isModeAvailable(mode: PermissionMode, conditions: ModeConditions): boolean {
  switch (mode) {
    case "auto":
      return conditions.modelSupportsAuto && !conditions.autoDisabled;
    case "bypassPermissions":
      return conditions.bypassAllowed;
    case "dontAsk":
      return false;
    default:
      return true;
  }
}

/** The modes a client may select now; `dontAsk` appears only while it is current. */
export function availableModes(current: PermissionMode, conditions: ModeConditions): SessionMode[] {
  const modes = OFFERED.filter((mode) => isModeAvailable(mode, conditions)).map(
    (m) => MODE_CATALOG[m],
  );
  if (!modes.some((mode) => mode.id === current)) modes.push(MODE_CATALOG[current]);
  return modes;
}

export function modeState(current: PermissionMode, conditions: ModeConditions): SessionModeState {
  return { currentModeId: current, availableModes: availableModes(current, conditions) };
}

/**
 * Whether Claude Code lets this process bypass permissions, decided as it decides: as root
 * only in a deliberate sandbox, `IS_SANDBOX` exactly "1" or `CLAUDE_CODE_BUBBLEWRAP` true.
 * Asked to allow bypass otherwise, Claude Code refuses to start at all.
 */
export function processMayBypass(env: NodeJS.ProcessEnv, uid: number | undefined): boolean {
  return uid !== 0 || env.IS_SANDBOX === "1" || envTruthy(env.CLAUDE_CODE_BUBBLEWRAP);
}

/** Claude Code's reading of a boolean environment variable. */
function envTruthy(value: string | undefined): boolean {
  return ["1", "true", "yes", "on"].includes((value ?? "").trim().toLowerCase());
}

/** A mode as written in settings: wire ids, plus `manual` as an alias of `default`. */
export function modeFromSettings(value: unknown): PermissionMode | undefined {
  if (value === "manual") return "default";
  return typeof value === "string" && isPermissionMode(value) ? value : undefined;
}
