import type * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { RequestError } from "@agentclientprotocol/sdk";
import type { Usage } from "@agentclientprotocol/sdk/unstable";
import type { AgentCore } from "../../core/agent-core.js";
import { log } from "../../logger.js";
import { deferred, type Deferred } from "../../util/deferred.js";
import type { TurnEnd } from "../channel.js";
import { toRequestError } from "../errors.js";
import type { SessionHandle, V2Channel } from "./channel.js";
import { idleState, type ForegroundWork } from "./foreground.js";
import { promptBlocks } from "./params.js";

/**
 * ACP v2's prompt lifecycle over the core's prompt, which resolves when its turn ends. A
 * prompt is answered once inserted, when its turn starts (after the turns before it): the
 * client hears the user message under the answer's `messageId`, then `running`; the turn's
 * end is the idle `state_update` with its stop reason (and usage), or with the error that
 * v1 answers the prompt with. A prompt cancelled (or closed) before its turn starts is
 * answered -32800; one refused before (a closed session, invalid content) gets its error.
 * Per session, a prompt's start is reported after the end of the turn before it (a
 * prompt's, or one Claude Code started itself: the channel keeps the order).
 */
export class PromptLifecycle {
  constructor(
    private readonly core: AgentCore,
    private readonly channel: V2Channel,
  ) {}

  prompt(
    sessionId: string,
    prompt: v2.ContentBlock[],
    signal: AbortSignal,
  ): Promise<v2.PromptResponse> {
    const answer = deferred<v2.PromptResponse>();
    void this.run(sessionId, prompt, signal, answer);
    return answer.promise;
  }

  private async run(
    sessionId: string,
    prompt: v2.ContentBlock[],
    signal: AbortSignal,
    answer: Deferred<v2.PromptResponse>,
  ): Promise<void> {
    let inserted: { handle: SessionHandle | undefined; work: ForegroundWork } | undefined;
    // The message's id is Claude Code's: its transcript, and so a replay, keep it.
    const started = (messageId: string) => {
      const handle = this.channel.handle(sessionId);
      // Both sent at once, in order, before anything Claude Code answers can be.
      const show = () =>
        Promise.all([
          this.report(() => this.channel.userMessage(sessionId, messageId, prompt)),
          this.report(() => this.channel.state(sessionId, { state: "running" }, handle)),
        ]).then(() => answer.resolve({ messageId }));
      inserted = { handle, work: this.channel.begin(sessionId, show) };
    };
    let end: TurnEnd;
    try {
      const response = await this.core.prompt(sessionId, promptBlocks(prompt), signal, started);
      const { usage } = response as { usage?: Usage | null };
      end = { stopReason: response.stopReason, ...(usage ? { usage } : {}) };
    } catch (error) {
      end = { error: toRequestError(error) };
    }
    if (!inserted) {
      // Never inserted: the prompt's own answer says why.
      answer.reject("error" in end ? end.error : RequestError.requestCancelled());
      return;
    }
    const { work, handle } = inserted;
    await work.end(() => this.report(() => this.channel.state(sessionId, idleState(end), handle)));
  }

  /** A report the client may not hear (it went away): logged, never the prompt's failure. */
  private async report(send: () => Promise<void>): Promise<void> {
    try {
      await send();
    } catch (error) {
      log.warn("could not report a prompt's state", error);
    }
  }
}
