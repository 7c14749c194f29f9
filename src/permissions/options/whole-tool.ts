import { allowOnce, allowWithUpdates, reject, type OptionBuilder } from "../choices.js";
import { labels } from "../labels.js";
import { localAllowRule } from "./generated.js";

/**
 * WebSearch / Agent / Task, and the generic fallback for every other tool
 * (ReviewArtifact, Workflow, Monitor, unknown): one-time allow; a generated
 * whole-tool local rule; reject.
 */
export const wholeToolOptions: OptionBuilder = (ask) => {
  const rule = localAllowRule(ask.toolName);
  return [
    allowOnce(),
    ...(rule ? [allowWithUpdates(labels.toolCommands(ask.toolName), rule)] : []),
    reject(),
  ];
};
