import type { PermissionOption, PermissionOptionKind } from "@agentclientprotocol/sdk";
import type { CanUseToolContext } from "../claude/types.js";
import type { ToolInput } from "../tools/index.js";
import type { ElevatedMode } from "./labels.js";
import { LABEL_LIMIT, LABELS } from "./labels.js";
import { OPTION_IDS, type OptionId } from "./option-ids.js";
import type { SuggestionSnapshot } from "./suggestions.js";

/** What selecting an option does. Each option is built together with its effect. */
export type PermissionEffect =
  | { type: "allowOnce" }
  /** Allow and apply exactly these updates (a validated snapshot or a generated rule). */
  | { type: "allowWithUpdates"; updates: SuggestionSnapshot }
  /** Leave plan mode into `mode`; with clearContext, continue in a fresh conversation. */
  | { type: "exitPlan"; mode: ElevatedMode | "default"; clearContext: boolean }
  | { type: "reject" };

export interface PermissionChoice {
  option: PermissionOption & { optionId: OptionId };
  effect: PermissionEffect;
}

/** Everything a builder knows about one ask. Builders are pure functions of this. */
export interface PermissionAsk {
  toolName: string;
  input: ToolInput;
  /** The validated snapshot of the SDK's suggestions, if any survived validation. */
  suggestions: SuggestionSnapshot | undefined;
  /** False when an ask rule forced this ask or the SDK forbids "don't ask again". */
  persistentChoicesAllowed: boolean;
  cwd: string;
  /** The user's home directory, for Claude Code's own ~/.claude folder. */
  homeDir: string;
  /** The session's working directories (cwd first, then additional ones). */
  workingDirectories: readonly string[];
  /** For ExitPlanMode: what the session can switch to, and the plan. */
  plan: PlanContext;
}

export interface PlanContext {
  /** Modes the session offers right now (ids as Claude knows them). */
  availableModes: ReadonlySet<string>;
  /** The complete plan text; empty when there is none. */
  planText: string;
  /** Share of the context window in use, when known. */
  contextUsedPercent?: number;
}

export type OptionBuilder = (ask: PermissionAsk) => PermissionChoice[];

/**
 * A configured ask rule must keep asking, and the SDK may forbid "don't ask again":
 * either one suppresses every persistent choice (permission-extension.md). Claude Code
 * declares an ask rule with `matchedAskRule` only in some cases; otherwise the ask's
 * (undeclared) `decisionReasonType` is `"rule"` — an allow rule never asks and a deny
 * rule never reaches the callback, so a rule that asks is an ask rule.
 */
export function persistentChoicesAllowed(
  sdk: Pick<CanUseToolContext, "matchedAskRule" | "suppressAlwaysAllowRule"> & {
    decisionReasonType?: unknown;
  },
): boolean {
  return (
    !sdk.matchedAskRule && sdk.suppressAlwaysAllowRule !== true && sdk.decisionReasonType !== "rule"
  );
}

export function choice(
  optionId: OptionId,
  name: string,
  kind: PermissionOptionKind,
  effect: PermissionEffect,
): PermissionChoice {
  return { option: { optionId, name, kind }, effect };
}

export const allowOnce = (name: string = LABELS.yes): PermissionChoice =>
  choice(OPTION_IDS.allowOnce, name, "allow_once", { type: "allowOnce" });

export const reject = (name: string = LABELS.no): PermissionChoice =>
  choice(OPTION_IDS.reject, name, "reject_once", { type: "reject" });

export const allowWithUpdates = (name: string, updates: SuggestionSnapshot): PermissionChoice =>
  choice(OPTION_IDS.allowWithUpdates, name, "allow_always", { type: "allowWithUpdates", updates });

const KIND_ORDER: Record<PermissionOptionKind, number> = {
  allow_once: 0,
  allow_always: 1,
  reject_once: 2,
  reject_always: 2,
};

/**
 * Stable grouping: allow_once, allow_always, then reject kinds; builder order is kept
 * within a kind. Persistent choices are dropped when the ask forbids them, and so is
 * one whose complete label is too long to offer (a label is never cut).
 */
export function finalizeChoices(
  choices: readonly PermissionChoice[],
  ask: Pick<PermissionAsk, "persistentChoicesAllowed">,
): PermissionChoice[] {
  const allowed = choices.filter(
    (c) =>
      c.effect.type !== "allowWithUpdates" ||
      (ask.persistentChoicesAllowed && c.option.name.length <= LABEL_LIMIT),
  );
  return allowed
    .map((c, index) => ({ c, index }))
    .sort((a, b) => KIND_ORDER[a.c.option.kind] - KIND_ORDER[b.c.option.kind] || a.index - b.index)
    .map(({ c }) => c);
}
