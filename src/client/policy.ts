// The answers of a client that does not ask (no TTY, or --answer): a fixed policy.
import type { PermissionOption, PermissionOptionKind } from "@agentclientprotocol/sdk";

export const ANSWER_POLICIES = ["allow-once", "allow-always", "reject", "first", "cancel"] as const;
export type AnswerPolicy = (typeof ANSWER_POLICIES)[number];

export function isAnswerPolicy(value: string): value is AnswerPolicy {
  return (ANSWER_POLICIES as readonly string[]).includes(value);
}

/** Kinds to look for, in order of preference. */
const PREFERENCE: Record<Exclude<AnswerPolicy, "first" | "cancel">, PermissionOptionKind[]> = {
  "allow-once": ["allow_once", "allow_always"],
  "allow-always": ["allow_always", "allow_once"],
  reject: ["reject_once", "reject_always"],
};

/**
 * The option a policy selects, by the standard `kind` only (never by id or label: the
 * agent owns what an option does), or undefined for a cancelled answer.
 */
export function choosePermissionOption(
  options: readonly PermissionOption[],
  policy: AnswerPolicy,
): PermissionOption | undefined {
  if (policy === "cancel") return undefined;
  if (policy === "first") return options[0];
  for (const kind of PREFERENCE[policy]) {
    const found = options.find((o) => o.kind === kind);
    if (found) return found;
  }
  return undefined;
}
