import type { SessionUpdate, ToolCall, ToolCallContent } from "@agentclientprotocol/sdk";
import { cleanMultiline } from "../util/text.js";
import { airCompactionMeta } from "./air/tool-calls.js";
import type { AgentClientCapabilities } from "./unstable-capabilities.js";

/** The fields of a compaction shown as a tool call. */
type CompactionCall = Pick<ToolCall, "title" | "status" | "content" | "_meta">;

/**
 * One compaction of the conversation as the client sees it (`/compact`, or Claude Code's
 * automatic compaction when the context fills): in progress, then done or failed.
 */
export interface Compaction {
  id: string;
  status: "in_progress" | "completed" | "failed";
  /** Claude Code's words for it: "Compacting conversation", "Compacted conversation". */
  title: string;
  /** The sizes before and after, once known: "12,159 → 2,536 tokens". */
  detail?: string;
  error?: string;
  /** For clients that style it: `{trigger, preTokens, postTokens}`. */
  meta?: Record<string, unknown>;
}

/**
 * What a compaction is sent as: a `compaction_update` for clients that declare
 * `session.compaction`, otherwise the fields of a `think` tool call under its id, as Claude
 * Code's terminal shows it ("Compacted conversation", sizes before and after). AIR reads its
 * facts under its own key too.
 */
export function shownCompaction(
  compaction: Compaction,
  capabilities: AgentClientCapabilities,
): { update: SessionUpdate; call?: undefined } | { update?: undefined; call: CompactionCall } {
  const { id, status, detail, error } = compaction;
  const meta = airCompactionMeta(
    { claudeCode: { kind: "compaction", ...compaction.meta } },
    compaction,
    capabilities,
  );
  const summary = detail ? [{ type: "text" as const, text: `${compaction.title}: ${detail}` }] : [];
  if (capabilities.session?.compaction) {
    return {
      update: {
        sessionUpdate: "compaction_update",
        compactionId: id,
        status,
        ...(summary.length ? { summary } : {}),
        ...(error ? { error: cleanMultiline(error) } : {}),
        _meta: meta,
      },
    };
  }
  const content: ToolCallContent[] = [
    ...summary,
    ...(error ? [{ type: "text" as const, text: cleanMultiline(error) }] : []),
  ].map((block) => ({ type: "content", content: block }));
  return {
    call: { title: compaction.title, status, ...(content.length ? { content } : {}), _meta: meta },
  };
}
