import type { ClaudeQuery } from "../../claude/query.js";
import type { IdleCompaction } from "../lifecycle/idle-compaction.js";
import type { SessionProcess } from "../lifecycle/session-process.js";
import { ClaudeTurnError } from "../../errors.js";
import type { TurnQueue } from "./turn-queue.js";

/** What a rewind does with a session (core/rewinds.ts builds it). */
export interface RewindPlan {
  /**
   * Where the conversation goes on after (asked first as a check: a wrong id stops nothing),
   * and the prompt of the one turn the cut drops, if it drops exactly one.
   */
  cut(conversation: string): Promise<{ upTo: string; dropsTurn?: string }>;
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
 * the files go back if asked and the next process resumes the conversation at the cut. A
 * cut that drops one turn is started at once, for Claude Code to check it (dropChecked).
 */
export async function rewindSession(host: RewindHost, plan: RewindPlan): Promise<void> {
  const { process, turns } = host;
  await plan.cut(process.conversation);
  if (plan.dryRun) return plan.files?.(process.live(host.mode()));
  turns.cancel();
  if (host.idleCompaction.runs) host.idleCompaction.cancel();
  await turns.drained();
  const { upTo, dropsTurn } = await plan.cut(process.conversation);
  await plan.files?.(process.live(host.mode()));
  process.rewind(upTo, dropsTurn);
  if (dropsTurn) await dropChecked(host);
}

/** How Claude Code's refusal of a truncating resume begins (the SDK's `resumeDropsTurn`). */
const DROP_REFUSED = "Resume rejected by --resume-drops-turn:";

/**
 * Claude Code checks, as its process starts, that the cut drops the one turn it was told of
 * and nothing else (a message it took in that the client never saw). Its refusal is final,
 * so the conversation resumes whole, as the SDK says, and the rewind fails saying so.
 */
async function dropChecked(host: RewindHost): Promise<void> {
  const { process } = host;
  const query = process.live(host.mode());
  try {
    await query.initialization();
  } catch (error) {
    const said = error instanceof Error ? error.message : String(error);
    if (!said.includes(DROP_REFUSED) || process.current !== query) throw error;
    process.dropRefused();
    process.restart();
    throw new ClaudeTurnError(
      `Claude Code refused to drop the turn, so the conversation stays whole: ${said.slice(said.indexOf(DROP_REFUSED))}`,
      { rewindRefused: true },
    );
  }
}
