import type { PlanEntry, PlanEntryStatus } from "@agentclientprotocol/sdk";
import { cleanSingleLine } from "../util/text.js";

function isPlanStatus(value: unknown): value is PlanEntryStatus {
  return value === "pending" || value === "in_progress" || value === "completed";
}

/** A todo's or task's status; anything unknown counts as pending. */
export function planStatus(value: unknown): PlanEntryStatus {
  return isPlanStatus(value) ? value : "pending";
}

/** A plan entry as Claude Code's spinner words it: the active form while in progress. */
export function planEntry(
  subject: string,
  status: PlanEntryStatus,
  activeForm: string | undefined,
): PlanEntry {
  const shown = status === "in_progress" && activeForm?.trim() ? activeForm : subject;
  return { content: cleanSingleLine(shown), status, priority: "medium" };
}
