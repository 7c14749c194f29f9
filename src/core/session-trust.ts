// Workspace trust for the open sessions: what a session's folder trust was when it opened (the
// responses carry it), `trust/apply`, and the ask before a session's first prompt for clients
// that do not know the RFD. A grant that names a session has it load the folder's context
// before its next prompt.
import type { ApplyTrustParams } from "../acp/workspace-trust.js";
import { requireDirectory } from "../session/configuration/directories.js";
import { folderKey } from "../claude/trust-store.js";
import { InvalidParamsError } from "../errors.js";
import { log } from "../logger.js";
import { parseClientAnswer } from "../permissions/response.js";
import { trustAnswerOf, trustRequest } from "../permissions/workspace-trust.js";
import type { SessionRegistry } from "../session/registry.js";
import type { Session } from "../session/session.js";
import { type TrustAssessment, WorkspaceTrust } from "./workspace-trust.js";

/** The tool call a trust ask is shown as (one per ask). */
const ASK_ID = "workspace-trust";

export class SessionTrust {
  private readonly folders: WorkspaceTrust;
  /** Each open session's folder trust, as last assessed. */
  private readonly assessed = new WeakMap<Session, TrustAssessment>();
  /** The ask under way per session: prompts that come meanwhile wait for it. */
  private readonly asking = new WeakMap<Session, { done: Promise<void>; stop: AbortController }>();
  private asks = 0;

  constructor(
    env: NodeJS.ProcessEnv,
    private readonly sessions: SessionRegistry,
  ) {
    this.folders = new WorkspaceTrust(env);
  }

  /** The trust of a session about to open in `cwd`. */
  assess(cwd: string): Promise<TrustAssessment> {
    return this.folders.assess(cwd);
  }

  opened(session: Session, assessment: TrustAssessment): void {
    this.assessed.set(session, assessment);
  }

  /** The session's folder trust, as its responses state it. */
  of(session: Session): TrustAssessment | undefined {
    return this.assessed.get(session);
  }

  /**
   * `trust/apply`: the decision, if the folder's trust offers it, applied; a session it
   * names (which must run in that folder) loads the folder's context before its next prompt.
   */
  async apply(params: ApplyTrustParams): Promise<TrustAssessment> {
    const session = params.sessionId ? this.sessions.require(params.sessionId) : undefined;
    if (params.decision === "trust_session" && !session) {
      throw new InvalidParamsError("trust_session needs the sessionId it applies to");
    }
    await requireDirectory(params.cwd, "cwd");
    if (session && (await folderKey(session.cwd)) !== (await folderKey(params.cwd))) {
      throw new InvalidParamsError("the session runs in another folder than cwd", {
        cwd: params.cwd,
      });
    }
    const after = await this.folders.apply(params.cwd, params.decision);
    if (session) this.settle(session, after);
    return after;
  }

  /**
   * Before a prompt: a session whose folder's context waits for the user's decision asks for
   * it (once at a time; prompts that come meanwhile wait). Resolves false when the ask was
   * stopped by `session/cancel`: the prompt then ends cancelled.
   */
  async beforePrompt(session: Session): Promise<boolean> {
    const under = this.asking.get(session);
    if (under) {
      await under.done;
      return !under.stop.signal.aborted;
    }
    const assessment = this.assessed.get(session);
    if (!assessment || assessment.declined || session.loadsProjectContext) return true;
    const stop = new AbortController();
    const done = this.ask(session, stop.signal).finally(() => this.asking.delete(session));
    this.asking.set(session, { done, stop });
    await done;
    return !stop.signal.aborted;
  }

  /** `session/cancel`: an ask under way for the session stops, as not now. */
  cancel(session: Session): void {
    this.asking.get(session)?.stop.abort();
  }

  private async ask(session: Session, signal: AbortSignal): Promise<void> {
    // The user may have decided meanwhile (trust/apply, another session's ask, a terminal).
    const now = await this.folders.assess(session.cwd);
    this.settle(session, now);
    if (now.loadsProjectContext || now.declined || now.status !== "untrusted") return;
    const ask = trustRequest(`${ASK_ID}-${++this.asks}`, now.cwd, now.ignoredPaths);
    const { toolCall, request } = ask;
    const { client } = session;
    const { toolCallId } = toolCall;
    let decision: ReturnType<typeof trustAnswerOf>;
    try {
      await client.sendToolCall(toolCall);
      const answer = parseClientAnswer(await client.requestPermission(request, signal));
      decision = answer.kind === "selected" ? trustAnswerOf(answer.optionId) : undefined;
    } catch (error) {
      // Not answered (cancelled, the client failed): not now; the session runs without.
      if (!signal.aborted) log.warn(`session ${session.id}: the trust ask failed`, error);
    }
    const granted = decision !== undefined && decision !== "decline";
    await client
      .updateToolCall({ toolCallId, status: granted ? "completed" : "failed" })
      .catch((error: unknown) => log.debug("could not end the trust ask's tool call", error));
    if (decision === undefined) return;
    try {
      this.settle(session, await this.folders.apply(session.cwd, decision));
    } catch (error) {
      log.warn(`session ${session.id}: the folder's trust could not be recorded`, error);
    }
  }

  /** The session's folder trust is now `assessment`: a grant loads the folder's context. */
  private settle(session: Session, assessment: TrustAssessment): void {
    this.assessed.set(session, assessment);
    if (assessment.status !== "untrusted") session.loadProjectContext();
  }
}
