// AIR's `recommendedValue` (advertised; used once declared), as AIR and the published adapter
// speak it: the model option names the model Claude Code's default runs, instead of a
// "Default" entry, and marks it `_meta.jetbrains.air.recommendedValue`. The core tells which
// listed model that is (the default choice's `_meta.claudeCode.resolvedValue`); when none is
// known the option stays as it is. Effort keeps its Default entry: Claude Code does not say
// which level a model's default is, and showing (or applying) one the session does not run
// would not be exact.
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { CONFIG_IDS } from "../config-ids.js";
import { isRecord } from "../../util/records.js";
import { AIR_CAPABILITIES, airDeclares, withAirMeta } from "./extension.js";

/** The value a choice's `_meta.claudeCode.resolvedValue` names, if any. */
function resolvedValueOf(choice: { _meta?: unknown }): string | undefined {
  const claudeCode = isRecord(choice._meta) ? choice._meta.claudeCode : undefined;
  const value = isRecord(claudeCode) ? claudeCode.resolvedValue : undefined;
  return typeof value === "string" ? value : undefined;
}

/** The model option with its default shown as the model it runs, for a client that declared it. */
export function withRecommendedValue(
  option: SessionConfigOption,
  capabilities: { _meta?: unknown },
): SessionConfigOption {
  if (option.id !== CONFIG_IDS.model || option.type !== "select") return option;
  if (!airDeclares(capabilities, AIR_CAPABILITIES.recommendedValue)) return option;
  const choices = option.options;
  if (!choices.every((choice) => "value" in choice)) return option;
  const byDefault = choices.find((choice) => resolvedValueOf(choice) !== undefined);
  const recommended = byDefault && resolvedValueOf(byDefault);
  if (!byDefault || !choices.some((choice) => choice.value === recommended)) return option;
  return {
    ...option,
    currentValue: option.currentValue === byDefault.value ? recommended! : option.currentValue,
    options: choices.filter((choice) => choice !== byDefault),
    _meta: withAirMeta(option._meta ?? undefined, AIR_CAPABILITIES.recommendedValue, recommended),
  };
}
