// A session's Claude Code process ended (it exited, crashed, or stopped answering and was
// ended): its commands and background subagents end with it, and the turn that was waiting
// on it either goes on in a new process or ends with the reason.
import type { ClaudeQuery } from "../../claude/query.js";
import { ClaudeNotRespondingError, ClaudeProcessExitedError } from "../../errors.js";
import { log } from "../../logger.js";
import type { ClaudeTasks } from "../background/claude-tasks.js";
import type { SessionTerminals } from "../background/terminals.js";
import type { SessionProcess } from "../lifecycle/session-process.js";
import type { SessionStartup } from "../lifecycle/session-startup.js";
import { isNamedStartupFailure } from "../lifecycle/startup-failure.js";
import type { TurnOutcome } from "./outcome.js";
import type { OwnTurns } from "./own-turns.js";
import { resendSteers } from "./steering.js";
import { type TurnQueue, userMessage } from "./turn-queue.js";

/** What the end of a process needs of its session. */
export interface ProcessEndHost {
  id(): string;
  process: SessionProcess;
  startup: SessionStartup;
  ownTurns: OwnTurns;
  terminals: SessionTerminals;
  tasks: ClaudeTasks;
  turns: TurnQueue;
  /** The mode a process started now runs in. */
  mode(): string;
}

/** A process that stopped answering is ended, and the session recovers as after a crash. */
export function processHung(
  host: ProcessEndHost,
  query: ClaudeQuery,
  error: ClaudeNotRespondingError,
): void {
  log.warn(`session ${host.id()}: ${error.message}`);
  query.terminate();
  void processEnded(host, query, error);
}

export async function processEnded(
  host: ProcessEndHost,
  query: ClaudeQuery,
  failure: unknown,
): Promise<void> {
  const { process, turns } = host;
  // Claude Code said why it could not start (lifecycle/startup-failure.ts).
  const named = isNamedStartupFailure(failure);
  if (named) process.startFailed(query);
  // A live process that ends before it started failed to start; one the session closed
  // or replaced meanwhile did not.
  if (host.startup.isStarting(query) && process.current === query) {
    return host.startup.fail(query, failure);
  }
  if (!process.endOnce(query)) return;
  if (failure) log.warn(`session ${host.id()}: Claude Code ended`, failure);
  const active = process.current === query;
  if (active) {
    process.current = undefined;
    void host.ownTurns.processEnded(failure);
  }
  void host.terminals.processEnded(query); // a replaced process's commands end with it too
  await host.tasks.processEnded(query); // and its background subagents
  query.close();
  // A replaced process ending late says nothing about the live one.
  if (!active && process.current) return;
  const turn = turns.current;
  if (!turn || turn.isFinished) return;
  // A process that died before it said anything for this turn (e.g. an idle process
  // that ended just as the prompt came) never saw the prompt: resume and send it again.
  // A hung one may have read it: it is not sent twice.
  const hung = failure instanceof ClaudeNotRespondingError;
  // A process that said why it could not start would say it again.
  if (
    !hung &&
    !named &&
    !turn.heardFromClaude &&
    !turn.resent &&
    !turn.cancelRequested &&
    turn.prompt
  ) {
    turn.resent = true;
    log.info(`session ${host.id()}: Claude Code ended before the prompt reached it; resuming`);
    const resumed = process.start(host.mode());
    resumed.send(userMessage(turn.prompt, turn));
    resendSteers(turn, resumed);
    return;
  }
  turn.abort.abort(new Error("Claude Code ended"));
  const outcome: TurnOutcome = turn.cancelRequested
    ? { stopReason: "cancelled" }
    : {
        error:
          hung || named
            ? failure
            : new ClaudeProcessExitedError(
                `Claude Code exited unexpectedly${failure instanceof Error ? `: ${failure.message}` : ""}. ` +
                  "The next prompt resumes the conversation.",
              ),
      };
  await turns.settle(turn, outcome);
  turn.finish();
}
