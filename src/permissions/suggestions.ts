import { z } from "zod";
import type { PermissionUpdate } from "../claude/types.js";
import { PERMISSION_MODES } from "./modes.js";

/** Bounds on SDK suggestions (design.md, "Suggestion bounds"). */
export const SUGGESTION_LIMITS = {
  updates: 100,
  entriesPerUpdate: 100,
  toolName: 512,
  ruleContent: 10_000,
  directory: 4_096,
} as const;

const destination = z.enum([
  "userSettings",
  "projectSettings",
  "localSettings",
  "session",
  "cliArg",
]);
const behavior = z.enum(["allow", "deny", "ask"]);
// A value with control characters could not be shown exactly in a label, so it is
// not a value we offer to persist.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const bounded = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((value) => !CONTROL.test(value) && value.trim() !== "");

const rule = z.strictObject({
  toolName: bounded(SUGGESTION_LIMITS.toolName),
  ruleContent: bounded(SUGGESTION_LIMITS.ruleContent).optional(),
});
const rules = z.array(rule).min(1).max(SUGGESTION_LIMITS.entriesPerUpdate);
const directories = z
  .array(bounded(SUGGESTION_LIMITS.directory))
  .min(1)
  .max(SUGGESTION_LIMITS.entriesPerUpdate);

const ruleUpdate = <T extends string>(type: T) =>
  z.strictObject({ type: z.literal(type), rules, behavior, destination });

const permissionUpdate = z.discriminatedUnion("type", [
  ruleUpdate("addRules"),
  ruleUpdate("replaceRules"),
  ruleUpdate("removeRules"),
  z.strictObject({
    type: z.literal("setMode"),
    mode: z.enum(PERMISSION_MODES),
    destination,
  }),
  z.strictObject({ type: z.literal("addDirectories"), directories, destination }),
  z.strictObject({ type: z.literal("removeDirectories"), directories, destination }),
]);

const suggestionArray = z.array(permissionUpdate).min(1).max(SUGGESTION_LIMITS.updates);

/**
 * A validated, deep-copied suggestion bundle. The label shown to the user and the
 * effect applied after a (possibly late) answer both come from this one copy.
 */
export type SuggestionSnapshot = readonly Readonly<PermissionUpdate>[];

/**
 * Validates the complete array and snapshots it. Anything invalid — an unknown update
 * type, a bad value, an oversized bundle, non-cloneable data, an empty array — voids
 * the whole array: no durable choice is offered from it.
 */
export function snapshotSuggestions(suggestions: unknown): SuggestionSnapshot | undefined {
  if (suggestions === undefined) return undefined;
  let copy: unknown;
  try {
    copy = structuredClone(suggestions);
  } catch {
    return undefined;
  }
  const parsed = suggestionArray.safeParse(copy);
  if (!parsed.success) return undefined;
  return deepFreeze(parsed.data satisfies PermissionUpdate[]);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const nested of Object.values(value)) deepFreeze(nested);
    Object.freeze(value);
  }
  return value;
}
