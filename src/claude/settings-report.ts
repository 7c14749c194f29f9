import type { Query } from "@anthropic-ai/claude-agent-sdk";

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
