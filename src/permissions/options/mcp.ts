import { allowOnce, allowWithUpdates, reject, type OptionBuilder } from "../choices.js";
import { labels } from "../labels.js";
import { exactAllowRule } from "./exact-rule.js";

/**
 * MCP tools (Computer Use included): one-time allow; the SDK's allow suggestion when it
 * is exactly a rule for this tool; reject.
 */
export const mcpOptions: OptionBuilder = (ask) => {
  const exact = exactAllowRule(ask.suggestions);
  const forThisTool =
    exact && exact.rule.toolName === ask.toolName && exact.rule.ruleContent === undefined;
  return [
    allowOnce(),
    ...(forThisTool && ask.suggestions
      ? [allowWithUpdates(labels.toolCommands(ask.toolName, exact.scope), ask.suggestions)]
      : []),
    reject(),
  ];
};
