/** The extension's standard option ids (permission-extension.md, "Standard option ids"). */
export const OPTION_IDS = {
  allowOnce: "allow-once",
  allowWithUpdates: "allow-with-updates",
  allowSkillExact: "allow-skill-exact",
  allowSkillPrefix: "allow-skill-prefix",
  exitPlanAuto: "exit-plan-auto",
  exitPlanBypass: "exit-plan-bypass",
  exitPlanAcceptEdits: "exit-plan-accept-edits",
  exitPlanDefault: "exit-plan-default",
  exitPlanClearAuto: "exit-plan-clear-auto",
  exitPlanClearBypass: "exit-plan-clear-bypass",
  exitPlanClearAcceptEdits: "exit-plan-clear-accept-edits",
  reject: "reject",
} as const;

export type OptionId = (typeof OPTION_IDS)[keyof typeof OPTION_IDS];
