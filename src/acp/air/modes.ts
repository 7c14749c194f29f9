// AIR's kind of each permission mode (`_meta.jetbrains.air.kind`), as AIR and the published
// adapter name them, on the modes a session offers and on its mode option's choices. AIR
// alone gets it.
import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";
import { CONFIG_IDS } from "../config-ids.js";
import { isAirClient, withAirMeta } from "./extension.js";
import { withRecommendedValue } from "./recommended-value.js";

type Capabilities = { _meta?: unknown };

/** AIR's kind of each mode a session offers (Claude Code's ids). */
const KINDS: Readonly<Record<string, string>> = {
  default: "standard",
  acceptEdits: "standard",
  plan: "plan",
  auto: "auto_review",
  bypassPermissions: "full_access",
};

const withKind = <T extends { _meta?: { [key: string]: unknown } | null }>(
  item: T,
  id: string,
): T =>
  KINDS[id] ? { ...item, _meta: withAirMeta(item._meta ?? undefined, "kind", KINDS[id]) } : item;

/** The modes, each with its kind for an AIR client. */
export function airModes(
  modes: SessionModeState | undefined,
  capabilities: Capabilities,
): SessionModeState | undefined {
  if (!modes || !isAirClient(capabilities)) return modes;
  return { ...modes, availableModes: modes.availableModes.map((m) => withKind(m, m.id)) };
}

/**
 * The config options for an AIR client: the mode option's choices each with its kind, the
 * model option with its recommended value once declared.
 */
export function airConfigOptions(
  options: SessionConfigOption[],
  capabilities: Capabilities,
): SessionConfigOption[] {
  if (!isAirClient(capabilities)) return options;
  return options.map((option) => {
    if (option.id === CONFIG_IDS.model) return withRecommendedValue(option, capabilities);
    if (option.id !== CONFIG_IDS.mode || option.type !== "select") return option;
    const choices = option.options;
    // The mode option's choices are flat (config-options.ts): groups are left as they are.
    if (!choices.every((choice) => "value" in choice)) return option;
    return { ...option, options: choices.map((choice) => withKind(choice, choice.value)) };
  });
}
