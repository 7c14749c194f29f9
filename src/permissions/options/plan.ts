import {
  allowOnce,
  choice,
  reject,
  type OptionBuilder,
  type PermissionChoice,
} from "../choices.js";
import { exitPlanClearContext, exitPlanKeepContext, LABELS, type ElevatedMode } from "../labels.js";
import { OPTION_IDS, type OptionId } from "../option-ids.js";

/** EnterPlanMode: enter plan mode once, or reject and continue implementing. */
export const enterPlanOptions: OptionBuilder = () => [
  allowOnce(LABELS.enterPlanMode),
  reject(LABELS.startImplementing),
];

/** Like Claude Code: the one elevated mode offered, by priority. */
export const ELEVATED_PRIORITY: readonly ElevatedMode[] = [
  "auto",
  "bypassPermissions",
  "acceptEdits",
];

const KEEP_CONTEXT_ID: Record<ElevatedMode, OptionId> = {
  auto: OPTION_IDS.exitPlanAuto,
  bypassPermissions: OPTION_IDS.exitPlanBypass,
  acceptEdits: OPTION_IDS.exitPlanAcceptEdits,
};

const CLEAR_CONTEXT_ID: Record<ElevatedMode, OptionId> = {
  auto: OPTION_IDS.exitPlanClearAuto,
  bypassPermissions: OPTION_IDS.exitPlanClearBypass,
  acceptEdits: OPTION_IDS.exitPlanClearAcceptEdits,
};

/**
 * ExitPlanMode: one clear-context choice (only with a non-empty plan) and one
 * keep-context choice into the highest available elevated mode, manual approval, or
 * keep planning. Builder order: clear, keep, manual, reject.
 */
export const exitPlanOptions: OptionBuilder = (ask) => {
  const elevated = ELEVATED_PRIORITY.find((mode) => ask.plan.availableModes.has(mode));
  const choices: PermissionChoice[] = [];
  if (elevated && ask.plan.planText.trim() !== "") {
    choices.push(
      choice(
        CLEAR_CONTEXT_ID[elevated],
        exitPlanClearContext(elevated, ask.plan.contextUsedPercent),
        "allow_always",
        { type: "exitPlan", mode: elevated, clearContext: true },
      ),
    );
  }
  if (elevated) {
    choices.push(
      choice(KEEP_CONTEXT_ID[elevated], exitPlanKeepContext(elevated), "allow_always", {
        type: "exitPlan",
        mode: elevated,
        clearContext: false,
      }),
    );
  }
  choices.push(
    choice(OPTION_IDS.exitPlanDefault, LABELS.exitPlanManual, "allow_once", {
      type: "exitPlan",
      mode: "default",
      clearContext: false,
    }),
    reject(LABELS.keepPlanning),
  );
  return choices;
};
