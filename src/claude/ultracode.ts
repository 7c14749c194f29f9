import { z } from "zod";
import type { Query } from "@anthropic-ai/claude-agent-sdk";
import { settingsReport } from "./settings-report.js";

/**
 * What Claude Code says of ultracode (standing dynamic-workflow orchestration) for the
 * session, from its applied settings: whether it can be turned on (workflows enabled and a
 * model that supports it) and whether it is asked for.
 */
export interface UltracodeReport {
  available: boolean;
  requested: boolean;
}

const appliedSettings = z.object({
  applied: z.object({
    ultracodeAvailable: z.boolean().optional(),
    ultracodeRequested: z.boolean().optional(),
  }),
});

/**
 * Claude Code's report, or undefined when it gives none (a Claude Code without the request,
 * or an answer of another shape).
 */
export async function ultracodeReport(query: Query): Promise<UltracodeReport | undefined> {
  return ultracodeOf(await settingsReport(query));
}

/** The same, from a settings report already read (settings-report.ts). */
export function ultracodeOf(report: unknown): UltracodeReport | undefined {
  const parsed = appliedSettings.safeParse(report);
  if (!parsed.success) return undefined;
  const { ultracodeAvailable, ultracodeRequested } = parsed.data.applied;
  return { available: ultracodeAvailable ?? false, requested: ultracodeRequested ?? false };
}
