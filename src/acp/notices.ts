// How something the user should see apart from Claude's reply reaches the client: ACP's
// `notice` update for a client that declares `session.notices`, otherwise an agent message of
// its own, marked so a client can style it apart.
import { randomUUID } from "node:crypto";
import type { NoticeSeverity, SessionUpdate } from "@agentclientprotocol/sdk";
import { redact } from "../util/secrets.js";
import { cleanMultiline, cleanSingleLine } from "../util/text.js";
import type { AgentClientCapabilities } from "./unstable-capabilities.js";

/** Something the user should see apart from Claude's reply (`sendNotice`). */
export interface Notice {
  /** What it is, for clients that style it (`_meta.claudeCode.kind`). */
  kind: string;
  severity: NoticeSeverity;
  /** Stands alone: one line. */
  title: string;
  description?: string;
}

/**
 * The update that shows a notice, marked `_meta.claudeCode.kind` (and `severity`); none when
 * its title is empty once cleaned.
 */
export function shownNotice(
  notice: Notice,
  capabilities: AgentClientCapabilities,
): SessionUpdate | undefined {
  // A notice may quote Claude Code or a gateway: no secret the agent holds is shown.
  const title = redact(cleanSingleLine(notice.title));
  const description = notice.description ? redact(cleanMultiline(notice.description)) : "";
  if (!title) return undefined;
  const meta = { claudeCode: { kind: notice.kind, severity: notice.severity } };
  if (capabilities.session?.notices) {
    return {
      sessionUpdate: "notice",
      severity: notice.severity,
      title,
      ...(description ? { description } : {}),
      _meta: meta,
    };
  }
  return {
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text: description ? `${title}\n${description}\n` : `${title}\n` },
    messageId: `notice-${randomUUID()}`,
    _meta: meta,
  };
}
