/**
 * Feeds a recorded `canUseTool` call through the agent's own permission builders, as
 * `src/session/turns/permission-request.ts` does: snapshot the suggestions, build the ordered
 * choices, and render the request presentation. What a client would be shown.
 */
import type { PermissionOptionKind } from "@agentclientprotocol/sdk";
import {
  persistentChoicesAllowed,
  type PermissionAsk,
  type PermissionEffect,
  type PlanContext,
} from "../../../permissions/choices.js";
import { buildChoices } from "../../../permissions/options/index.js";
import { presentation, type PermissionPresentation } from "../../../permissions/presentation.js";
import { snapshotSuggestions } from "../../../permissions/suggestions.js";
import type { AuditDirs, RecordedAsk } from "./run.js";

/** One option as the user sees it, with the effect selecting it has. */
export interface ShownOption {
  id: string;
  name: string;
  kind: PermissionOptionKind;
  effect: PermissionEffect;
}

export function askFor(
  recorded: RecordedAsk,
  dirs: AuditDirs,
  plan: Partial<PlanContext> = {},
): PermissionAsk {
  const context = recorded.context;
  return {
    toolName: recorded.toolName,
    input: recorded.input,
    suggestions: snapshotSuggestions(context.suggestions),
    persistentChoicesAllowed: persistentChoicesAllowed(context),
    cwd: dirs.cwd,
    homeDir: dirs.home,
    workingDirectories: [dirs.cwd],
    plan: {
      availableModes: new Set(["default", "acceptEdits", "plan"]),
      planText: typeof recorded.input.plan === "string" ? recorded.input.plan : "",
      ...plan,
    },
  };
}

/** The options the agent would offer for this recorded call, in wire order. */
export function optionsShown(
  recorded: RecordedAsk,
  dirs: AuditDirs,
  plan: Partial<PlanContext> = {},
): ShownOption[] {
  return buildChoices(askFor(recorded, dirs, plan)).map(({ option, effect }) => ({
    id: option.optionId,
    name: option.name,
    kind: option.kind,
    effect,
  }));
}

/** The request's `_meta.permission` for this call, given the tool call's title. */
export function presentationOf(
  recorded: RecordedAsk,
  toolCallTitle: string,
): PermissionPresentation {
  return presentation(recorded.toolName, toolCallTitle, recorded.context);
}
