import { stringField } from "../../tools/input.js";
import { allowOnce, allowWithUpdates, reject, type OptionBuilder } from "../choices.js";
import { labels } from "../labels.js";
import { exactAllowRule } from "./exact-rule.js";

/** Claude Code's sandbox host rules are WebFetch domain rules: `WebFetch(domain:<host>)`. */
const HOST_RULE_TOOL = "WebFetch";

/**
 * SandboxNetworkAccess: one-time allow; the SDK's host rule when it is exactly one
 * `WebFetch(domain:<host>)` rule for the host asked about; reject.
 */
export const sandboxNetworkOptions: OptionBuilder = (ask) => {
  const host = stringField(ask.input, "host")?.trim();
  const exact = exactAllowRule(ask.suggestions);
  const representable =
    host && exact?.rule.toolName === HOST_RULE_TOOL && exact.rule.ruleContent === `domain:${host}`;
  return [
    allowOnce(),
    ...(representable && host && exact && ask.suggestions
      ? [allowWithUpdates(labels.dontAskAgainFor(host, exact.scope), ask.suggestions)]
      : []),
    reject(),
  ];
};
