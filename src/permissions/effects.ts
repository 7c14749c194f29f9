import type { PermissionResult, PermissionUpdate } from "../claude/types.js";
import type { ToolInput } from "../tools/index.js";
import type { PermissionEffect } from "./choices.js";
import { TOOL_USE_ABORTED, USER_REJECTED, userRejectedWithFeedback } from "./messages.js";

/**
 * Every way an ask can end without an answer: the tool use is aborted, and Claude is
 * told so. The turn itself goes on unless it is being cancelled (then the session has
 * already interrupted Claude).
 */
export function abortedResult(): PermissionResult {
  return { behavior: "deny", message: TOOL_USE_ABORTED };
}

export function deniedResult(message: string): PermissionResult {
  return { behavior: "deny", message };
}

/**
 * A result whose rules are saved to the project's settings, which a session that does not
 * read them (a folder the user has not trusted) would never apply: they also hold for the
 * session, so what the user chose applies at once, whatever the folder's trust.
 */
export function withSessionCopies(result: PermissionResult): PermissionResult {
  if (result.behavior !== "allow" || !result.updatedPermissions) return result;
  const copies = result.updatedPermissions
    .filter((u) => u.destination === "localSettings" || u.destination === "projectSettings")
    .map((u) => ({ ...structuredClone(u), destination: "session" as const }));
  return copies.length
    ? { ...result, updatedPermissions: [...result.updatedPermissions, ...copies] }
    : result;
}

/** The SDK result of a selected option; a durable effect is the snapshot it was labelled with. */
export function resultOfEffect(
  effect: PermissionEffect,
  input: ToolInput,
  feedback?: string,
): PermissionResult {
  switch (effect.type) {
    case "allowOnce":
      return { behavior: "allow", updatedInput: input, decisionClassification: "user_temporary" };
    case "allowWithUpdates":
      return {
        behavior: "allow",
        updatedInput: input,
        updatedPermissions: structuredClone(effect.updates) as PermissionUpdate[],
        decisionClassification: "user_permanent",
      };
    case "exitPlan":
      return {
        behavior: "allow",
        updatedInput: input,
        updatedPermissions: [{ type: "setMode", mode: effect.mode, destination: "session" }],
        decisionClassification: "user_temporary",
      };
    case "reject":
      return {
        behavior: "deny",
        message: feedback ? userRejectedWithFeedback(feedback) : USER_REJECTED,
        decisionClassification: "user_reject",
      };
    default: {
      const unknown: never = effect;
      throw new Error(`unknown permission effect ${JSON.stringify(unknown)}`);
    }
  }
}
