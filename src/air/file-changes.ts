import type { PromptResponse } from "@agentclientprotocol/sdk";
import {
  fileChangeReportMeta,
  fileChangeRequestId,
  type Unavailable,
} from "../acp/air/file-changes.js";
import { isFailureAnswer } from "../acp/air/session-failure.js";
import type { SessionNotificationOut } from "../acp/channel.js";
import type { AgentCore } from "../core/agent-core.js";
import { log } from "../logger.js";

/** What the reports need of their connection. */
export interface FileReportsHost {
  core(): AgentCore;
  update(notification: SessionNotificationOut): Promise<void>;
}

/**
 * JetBrains AIR's reports of the files a prompt's turn changed (acp/air/file-changes.ts), on
 * one ACP v1 connection: asked for by the prompt, sent after its turn and before its answer.
 */
export class AirFileChangeReports {
  /** The ids each session's prompts used: an id asked for again gets no second report. */
  private readonly used = new Set<string>();

  constructor(private readonly host: FileReportsHost) {}

  /** Runs a prompt's turn; a report it asked for is sent once the turn ends. */
  async around<T extends { result: PromptResponse; userMessageId?: string }>(
    capabilities: { _meta?: unknown },
    prompt: { sessionId: string; _meta?: unknown },
    run: () => Promise<T>,
  ): Promise<T> {
    const requestId = fileChangeRequestId(capabilities, prompt._meta);
    const key = `${prompt.sessionId}\u0000${requestId}`;
    if (!requestId || this.used.has(key)) return run();
    this.used.add(key);
    const send = (changes: Parameters<typeof fileChangeReportMeta>[1]) =>
      this.host
        .update({
          sessionId: prompt.sessionId,
          update: {
            sessionUpdate: "session_info_update",
            _meta: fileChangeReportMeta(requestId, changes),
          },
        })
        .catch((error: unknown) => log.warn("could not send a file change report", error));
    let outcome: T;
    try {
      outcome = await run();
    } catch (error) {
      await send({ unavailable: "providerError" });
      throw error;
    }
    await send(await this.changes(prompt.sessionId, outcome));
    return outcome;
  }

  private async changes(
    sessionId: string,
    { result, userMessageId }: { result: PromptResponse; userMessageId?: string },
  ): Promise<Parameters<typeof fileChangeReportMeta>[1]> {
    const unavailable = (reason: Unavailable) => ({ unavailable: reason });
    if (result.stopReason === "cancelled") return unavailable("cancelled");
    if (isFailureAnswer(result._meta)) return unavailable("providerError");
    if (!userMessageId) return unavailable("notReported");
    return this.host
      .core()
      .filesChangedSince(sessionId, userMessageId)
      .catch(() => unavailable("providerError"));
  }
}
