// Whether a session may load its folder's project context (settings, hooks, MCP servers,
// instructions...): the folder is trusted in Claude Code's own store, or by the user for this
// agent process, or has nothing to protect. The ACP RFD "workspace trust" states and
// decisions, kept for this agent process (declines and session grants) and in Claude Code's
// store (folder and repository grants, which a terminal then shares).
import type { FolderTrustView, TrustDecision, TrustStatus } from "../acp/workspace-trust.js";
import { projectContextPaths } from "../claude/project-context.js";
import {
  folderKey,
  recordTrust,
  repositoryRoot,
  TRUST_ALL_FOLDERS,
  trustedByClaudeCode,
} from "../claude/trust-store.js";
import { InvalidParamsError } from "../errors.js";

/**
 * A folder's trust, as a session opened there now would have it: `cwd` is its real path,
 * `ignoredPaths` the project context that exists and is not loaded (untrusted only).
 */
export interface TrustAssessment extends FolderTrustView {
  /** The user declined this folder in this agent process: no fallback ask. */
  declined: boolean;
  /**
   * Whether a session loads the folder's project context: a trusted folder's, or one with
   * nothing to protect (a session there opens as it always has).
   */
  loadsProjectContext: boolean;
}

/** Whether a decision gives the folder more trust than it has. */
export function grantsTrust(decision: TrustDecision): boolean {
  return decision !== "decline";
}

export class WorkspaceTrust {
  /** Folders the user trusted for this agent process (`trust_session`). */
  private readonly sessionTrusted = new Set<string>();
  /** Folders the user declined in this agent process. */
  private readonly declined = new Set<string>();

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** The trust of a session in `cwd` (an existing folder). */
  async assess(cwd: string): Promise<TrustAssessment> {
    const folder = await folderKey(cwd);
    const [root, trusted] = await Promise.all([
      repositoryRoot(folder),
      this.env[TRUST_ALL_FOLDERS] === "1" || trustedByClaudeCode(folder, this.env),
    ]);
    const repoRoot = root !== undefined && root !== folder ? { repoRoot: root } : {};
    const status: TrustStatus = trusted
      ? "trusted"
      : this.sessionTrusted.has(folder)
        ? "session"
        : "untrusted";
    const availableDecisions: TrustDecision[] =
      status === "trusted"
        ? []
        : [
            ...(repoRoot.repoRoot ? (["trust_repo"] as const) : []),
            "trust_cwd",
            ...(status === "untrusted" ? (["trust_session", "decline"] as const) : []),
          ];
    const ignoredPaths = status === "untrusted" ? await projectContextPaths(folder, this.env) : [];
    return {
      status,
      cwd: folder,
      ...repoRoot,
      ignoredPaths,
      availableDecisions,
      declined: this.declined.has(folder),
      loadsProjectContext: ignoredPaths.length === 0,
    };
  }

  /**
   * Applies the user's decision for `cwd`, if it is one its assessment offers (else
   * -32602): a folder or its repository is recorded in Claude Code's store, a session grant
   * and a decline hold for this agent process. Resolves with the folder's trust after it.
   */
  async apply(cwd: string, decision: TrustDecision): Promise<TrustAssessment> {
    const before = await this.assess(cwd);
    if (!before.availableDecisions.includes(decision)) {
      throw new InvalidParamsError(
        `"${decision}" is not a decision available for this folder (${before.status})`,
        { cwd, available: before.availableDecisions },
      );
    }
    const folder = before.cwd;
    switch (decision) {
      case "trust_repo":
        await recordTrust(before.repoRoot!, this.env);
        break;
      case "trust_cwd":
        await recordTrust(folder, this.env);
        break;
      case "trust_session":
        this.sessionTrusted.add(folder);
        break;
      case "decline":
        break;
      default:
        return decision satisfies never;
    }
    if (decision === "decline") this.declined.add(folder);
    else this.declined.delete(folder);
    return this.assess(cwd);
  }
}
