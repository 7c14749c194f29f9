import type { PermissionRuleValue } from "../../claude/types.js";
import type { LabelScope } from "../labels.js";
import type { SuggestionSnapshot } from "../suggestions.js";
import { labelScope } from "./scope.js";

/**
 * The one allow rule of a bundle that holds exactly one addRules update with exactly
 * one rule at a destination a label can state; anything more is not "exact".
 */
export function exactAllowRule(
  bundle: SuggestionSnapshot | undefined,
): { rule: PermissionRuleValue; scope: LabelScope } | undefined {
  if (bundle?.length !== 1) return undefined;
  const [update] = bundle;
  if (update?.type !== "addRules" || update.behavior !== "allow" || update.rules.length !== 1) {
    return undefined;
  }
  const scope = labelScope(update.destination);
  const [rule] = update.rules;
  return scope && rule ? { rule, scope } : undefined;
}
