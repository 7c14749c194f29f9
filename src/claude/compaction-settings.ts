import { z } from "zod";
import type { Query } from "@anthropic-ai/claude-agent-sdk";
import { settingsReport } from "./settings-report.js";

/** What Claude Code's merged settings say of compaction (its own keys, read as it reads them). */
export interface CompactionSettings {
  /** `autoCompactEnabled` (default true). */
  autoCompact: boolean;
  /** `idleCompaction`: compact a long conversation left idle (default true). */
  idleCompaction: boolean;
  /** The settings' `env`, which Claude Code applies over its process environment. */
  env: Record<string, string>;
}

/** `get_settings` answers with the merged settings under `effective`. */
const mergedSettings = z.object({
  effective: z.object({
    autoCompactEnabled: z.boolean().optional().catch(undefined),
    idleCompaction: z.boolean().optional().catch(undefined),
    env: z.record(z.string(), z.string()).optional().catch(undefined),
  }),
});

/** The settings, or undefined when Claude Code gives none (or an answer of another shape). */
export async function compactionSettings(query: Query): Promise<CompactionSettings | undefined> {
  const parsed = mergedSettings.safeParse(await settingsReport(query));
  if (!parsed.success) return undefined;
  const { autoCompactEnabled, idleCompaction, env } = parsed.data.effective;
  return {
    autoCompact: autoCompactEnabled ?? true,
    idleCompaction: idleCompaction ?? true,
    env: env ?? {},
  };
}
