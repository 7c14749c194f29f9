import type { SuggestionSnapshot } from "../suggestions.js";
import { snapshotSuggestions } from "../suggestions.js";

/**
 * An allow rule the adapter generates itself; such effects go to local settings. A
 * generated rule passes the same validation as an SDK suggestion: a value that cannot
 * be shown exactly in a label (control characters, beyond the bounds) is not offered.
 */
export function localAllowRule(
  toolName: string,
  ruleContent?: string,
): SuggestionSnapshot | undefined {
  return snapshotSuggestions([
    {
      type: "addRules",
      rules: [ruleContent === undefined ? { toolName } : { toolName, ruleContent }],
      behavior: "allow",
      destination: "localSettings",
    },
  ]);
}
