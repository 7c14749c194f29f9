/** A small factory for `PermissionAsk` objects and readable views of built options. */
import type { PermissionOptionKind } from "@agentclientprotocol/sdk";
import type { PermissionAsk, PermissionChoice, PlanContext } from "../../../permissions/choices.js";
import { buildChoices } from "../../../permissions/options/index.js";
import { snapshotSuggestions } from "../../../permissions/suggestions.js";
import type { ToolInput } from "../../../tools/index.js";

export const CWD = "/project";
export const HOME = "/home/user";

export interface AskSpec {
  /** Raw SDK suggestions; they go through `snapshotSuggestions` like in the adapter. */
  suggestions?: unknown;
  persistentChoicesAllowed?: boolean;
  cwd?: string;
  homeDir?: string;
  workingDirectories?: readonly string[];
  plan?: Partial<PlanContext>;
}

export function makeAsk(
  toolName: string,
  input: ToolInput = {},
  spec: AskSpec = {},
): PermissionAsk {
  const cwd = spec.cwd ?? CWD;
  return {
    toolName,
    input,
    suggestions: snapshotSuggestions(spec.suggestions),
    persistentChoicesAllowed: spec.persistentChoicesAllowed ?? true,
    cwd,
    homeDir: spec.homeDir ?? HOME,
    workingDirectories: spec.workingDirectories ?? [cwd],
    plan: {
      availableModes: new Set(["default", "acceptEdits", "plan"]),
      planText: "",
      ...spec.plan,
    },
  };
}

/** What a client sees of one option. */
export interface OptionView {
  id: string;
  name: string;
  kind: PermissionOptionKind;
}

export function view(choices: readonly PermissionChoice[]): OptionView[] {
  return choices.map(({ option }) => ({
    id: option.optionId,
    name: option.name,
    kind: option.kind,
  }));
}

/** The built, grouped options of an ask. */
export function optionsFor(toolName: string, input: ToolInput = {}, spec: AskSpec = {}) {
  const ask = makeAsk(toolName, input, spec);
  const choices = buildChoices(ask);
  return { ask, choices, options: view(choices) };
}

export const YES: OptionView = { id: "allow-once", name: "Yes", kind: "allow_once" };
export const NO: OptionView = { id: "reject", name: "No", kind: "reject_once" };

/** The durable option offered with a label. */
export function always(name: string, id = "allow-with-updates"): OptionView {
  return { id, name, kind: "allow_always" };
}
