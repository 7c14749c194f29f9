// ACP's workspace-trust RFD (draft) on the wire: the `workspaceTrust` state the responses that
// open a session carry, and `trust/apply`, which applies the user's decision. The params are
// checked here as the RFD says (no nulls, an absolute cwd, a known decision) before anything
// is applied; the core checks the rest (core/session-trust.ts).
import { isAbsolute } from "node:path";
import { z } from "zod";

export const TRUST_APPLY_METHOD = "trust/apply";

export const TRUST_DECISIONS = ["trust_repo", "trust_cwd", "trust_session", "decline"] as const;
export type TrustDecision = (typeof TRUST_DECISIONS)[number];
export type TrustStatus = "trusted" | "session" | "untrusted";

export interface WorkspaceTrustDetails {
  cwd: string;
  repoRoot?: string;
  ignoredPaths: string[];
  availableDecisions: TrustDecision[];
}

/** The RFD's `WorkspaceTrustState`. */
export interface WorkspaceTrustState {
  status: TrustStatus;
  details?: WorkspaceTrustDetails;
}

/** A folder's trust as the core assesses it. */
export interface FolderTrustView extends WorkspaceTrustDetails {
  status: TrustStatus;
}

/**
 * The state a response carries: details only when the user has something to decide, that
 * is, project context that exists and is not loaded.
 */
export function workspaceTrustState(view: FolderTrustView): WorkspaceTrustState {
  const { status, cwd, repoRoot, ignoredPaths, availableDecisions } = view;
  if (status !== "untrusted" || ignoredPaths.length === 0) return { status };
  return {
    status,
    details: {
      cwd,
      ...(repoRoot !== undefined ? { repoRoot } : {}),
      ignoredPaths: [...ignoredPaths],
      availableDecisions: [...availableDecisions],
    },
  };
}

const applyShape = z.looseObject({
  cwd: z
    .string()
    .min(1)
    .refine((cwd) => isAbsolute(cwd) && !cwd.includes("\0"), "cwd must be an absolute path"),
  decision: z.enum(TRUST_DECISIONS),
  sessionId: z.string().min(1).optional(),
  _meta: z.record(z.string(), z.unknown()).optional().catch(undefined),
});
export type ApplyTrustParams = z.infer<typeof applyShape>;

/** Validates `trust/apply` params; a failure becomes invalid params at the protocol edge. */
export const applyTrustParams = {
  parse: (params: unknown): ApplyTrustParams => applyShape.parse(params),
};
