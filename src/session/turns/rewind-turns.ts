import type { ClaudeQuery } from "../../claude/query.js";
import type { IdleCompaction } from "../lifecycle/idle-compaction.js";
import type { SessionProcess } from "../lifecycle/session-process.js";
import type { TurnQueue } from "./turn-queue.js";

/** What a rewind does with a session (core/rewinds.ts builds it). */
export interface RewindPlan {
  /** Where the conversation goes on after: asked first as a check, a wrong id stops nothing. */
  cut(conversation: string): Promise<string>;
  /** What it does with the files, on the session's process, before that process goes. */
  files?(query: ClaudeQuery): Promise<void>;
  /** Only the files' preview: no turn stops and the conversation stays. */
  dryRun?: boolean;
}

export interface RewindHost {
  readonly turns: TurnQueue;
  readonly process: SessionProcess;
  readonly idleCompaction: IdleCompaction;
  mode(): string;
}

/**
 * A rewind of the session: the turns running or waiting are cancelled, and once none runs,
 * the files go back if asked and the next process resumes the conversation at the cut.
 */
export async function rewindSession(host: RewindHost, plan: RewindPlan): Promise<void> {
  const { process, turns } = host;
  await plan.cut(process.conversation);
  if (plan.dryRun) return plan.files?.(process.live(host.mode()));
  turns.cancel();
  if (host.idleCompaction.runs) host.idleCompaction.cancel();
  await turns.drained();
  const upTo = await plan.cut(process.conversation);
  await plan.files?.(process.live(host.mode()));
  process.rewind(upTo);
}
