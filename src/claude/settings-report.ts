import { z } from "zod";
import type { Query } from "@anthropic-ai/claude-agent-sdk";
import { budgetTurnsThinkingOff } from "./thinking.js";

/**
 * Claude Code's answer to `get_settings`: its merged settings, and under `applied` what it
 * runs with. Undefined from a Claude Code without the request. `getSettings` is the SDK's,
 * not yet in its types; callers check the shape they read.
 */
export async function settingsReport(query: Query): Promise<unknown> {
  const getSettings = (query as Query & { getSettings?: () => Promise<unknown> }).getSettings;
  if (typeof getSettings !== "function") return undefined;
  return getSettings.call(query);
}

/** `get_settings`' merged settings: the keys that turn thinking off at Claude Code's start. */
const mergedSettings = z.object({
  effective: z.object({
    alwaysThinkingEnabled: z.boolean().optional().catch(undefined),
    env: z.record(z.string(), z.string()).optional().catch(undefined),
  }),
});

/**
 * Whether a settings report says Claude Code's settings start it with thinking off
 * (`alwaysThinkingEnabled: false`, or a budget of 0 in their `env`); undefined when the
 * report is not of this shape.
 */
export function thinkingOffOf(report: unknown): boolean | undefined {
  const parsed = mergedSettings.safeParse(report);
  if (!parsed.success) return undefined;
  const { alwaysThinkingEnabled, env } = parsed.data.effective;
  return alwaysThinkingEnabled === false || budgetTurnsThinkingOff(env ?? {});
}
