import { z } from "zod";

/**
 * This agent's own request options, in `_meta.claudeAgentAcp` of the request:
 * - `includeWorktrees` (session/list): also list the sessions recorded at the root of each
 *   other git worktree of the cwd's repository;
 * - `allowCwdChange` (session/load, session/resume): open a session under a cwd other than
 *   the one it was recorded in.
 */
export interface SessionMetaOptions {
  includeWorktrees: boolean;
  allowCwdChange: boolean;
}

export const META_KEY = "claudeAgentAcp";

const schema = z.looseObject({
  [META_KEY]: z
    .looseObject({
      includeWorktrees: z.boolean().optional(),
      allowCwdChange: z.boolean().optional(),
    })
    .optional(),
});

/** The options a request's `_meta` asks for; anything unreadable asks for nothing. */
export function sessionMetaOptions(meta: unknown): SessionMetaOptions {
  const parsed = schema.safeParse(meta ?? {});
  const options = parsed.success ? parsed.data[META_KEY] : undefined;
  return {
    includeWorktrees: options?.includeWorktrees === true,
    allowCwdChange: options?.allowCwdChange === true,
  };
}
