import type { ContentBlock, PromptResponse } from "@agentclientprotocol/sdk";
import type { SessionClient } from "../../acp/session-client.js";
import { PROMPT_REQUIRED, type SteeringResponse } from "../../acp/steering.js";
import type { ClaudeQuery } from "../../claude/query.js";
import type { SDKResultMessage, UserContentBlock } from "../../claude/types.js";
import { InvalidParamsError } from "../../errors.js";
import { log } from "../../logger.js";
import { turnFailedNotice } from "../stream/notices.js";
import type { Turn } from "./turn.js";
import { userMessage } from "./turn-queue.js";

/**
 * The most steers one turn holds unanswered. Claude Code's result names at most 64 user
 * messages, the turn's own prompt among them (`user_message_uuids`): a turn waiting for more
 * would wait for a name that never comes. Past this, a steer is refused with an error.
 */
export const MAX_PENDING_STEERS = 32;

/** What steering needs from its session. */
export interface SteeringHost {
  /** The user's turn Claude Code is answering, if any. */
  currentTurn(): Turn | undefined;
  /** The live Claude process, if any. */
  query(): ClaudeQuery | undefined;
  /** Queues a prompt as `session/prompt` does. */
  prompt(blocks: readonly ContentBlock[]): Promise<PromptResponse>;
  /** The content `session/prompt` makes of the blocks, with its checks. */
  toClaude(blocks: readonly ContentBlock[]): UserContentBlock[];
  readonly client: SessionClient;
}

/**
 * `_session/steering`. With a turn running, the message joins it as Claude Code's own
 * mid-turn user message: Claude Code holds it while a tool runs or a permission or question
 * is open (none is cancelled) and hands it to the model with the next tool result; if the
 * model is already writing its last answer, Claude Code answers the message in a turn of
 * its own right after. Either way the running prompt is answered once, after the message is
 * answered too (`awaitsSteer`). Without a running turn (or once the result that answers it
 * came, while the agent closes it): `promptRequired` when the client asked for it, else the
 * message starts a turn like a prompt nobody waits for.
 */
export function steer(
  host: SteeringHost,
  blocks: readonly ContentBlock[],
  idleBehavior: string | undefined,
): SteeringResponse {
  const content = host.toClaude(blocks); // the same conversion (and hardening) as a prompt
  const turn = host.currentTurn();
  const query = host.query();
  if (
    turn &&
    query &&
    !turn.closing &&
    !turn.isSettled &&
    !turn.isFinished &&
    !turn.cancelRequested
  ) {
    if (turn.steers.size >= MAX_PENDING_STEERS) {
      throw new InvalidParamsError(
        `This turn already holds ${MAX_PENDING_STEERS} steering messages Claude has not ` +
          "answered yet: wait for its answer, or send the message as a prompt.",
        { pendingSteers: turn.steers.size, maxPendingSteers: MAX_PENDING_STEERS },
      );
    }
    sendSteer(turn, query, content);
    return { outcome: "injected" };
  }
  if (idleBehavior === PROMPT_REQUIRED)
    return { outcome: "promptRequired", reason: "noRunningTurn" };
  // No request waits for this turn's answer: a failure reaches the client as a notice.
  host
    .prompt(blocks)
    .catch((error: unknown) =>
      host.client
        .sendNotice(turnFailedNotice(error instanceof Error ? error.message : String(error)))
        .catch((sendError: unknown) =>
          log.warn("could not report a steered turn's failure", sendError),
        ),
    );
  return { outcome: "startedNewTurn" };
}

/** One more user message of `turn`, which waits for a result to name it. */
function sendSteer(turn: Turn, query: ClaudeQuery, content: UserContentBlock[]): void {
  const message = userMessage(content, turn);
  if (message.uuid) turn.steers.set(message.uuid, content);
  query.send(message);
}

/**
 * Whether `turn` goes on after `result`: a steer sent into it is still unanswered. Not after
 * a cancel or a failed turn (Claude Code may still answer the steer, as a turn of its own),
 * nor when the result names no message (older Claude Code: nothing to wait on). The steers
 * it names are answered either way, so a plan handoff resends only the others. Claude Code
 * names every message a turn consumed, up to 64: MAX_PENDING_STEERS keeps within that. (Its
 * `queued_turn_count` cannot tell instead: it was 0 on a result after which Claude Code
 * answered a steer in a turn of its own.)
 */
export function awaitsSteer(turn: Turn, result: SDKResultMessage): boolean {
  const named =
    result.user_message_uuids ?? (result.user_message_uuid ? [result.user_message_uuid] : []);
  for (const id of named) turn.steers.delete(id);
  return named.length > 0 && !turn.cancelRequested && !result.is_error && turn.steers.size > 0;
}

/** The turn goes on in a new process (a resend, a plan handoff): its unanswered steers too. */
export function resendSteers(turn: Turn, query: ClaudeQuery): void {
  const pending = [...turn.steers.values()];
  turn.steers.clear();
  for (const content of pending) sendSteer(turn, query, content);
}
