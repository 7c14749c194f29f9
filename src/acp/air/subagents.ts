// JetBrains AIR's draft of subagents as child sessions (`nativeSubagentSessions`), as AIR and
// the published adapter speak it: the parent announces a child with `subagent_spawned` and ends
// it with `subagent_state_update`; between the two the child's traffic goes to its own session.
// A child that works again after it ended is a new generation: announced anew under a new id.
import { cleanMultiline, cleanSingleLine } from "../../util/text.js";

/** AIR's announcement of a child, on its parent. */
export interface SubagentSpawned {
  sessionUpdate: "subagent_spawned";
  subagentSessionId: string;
  name: string;
  task: string;
  prompt?: string;
  /** AIR's draft grants a child nothing: no cancel, no close. */
  capabilities: Record<string, never>;
}

/** How a child ended, on its parent; nothing of it follows. */
export interface SubagentStateUpdate {
  sessionUpdate: "subagent_state_update";
  subagentSessionId: string;
  state: "completed" | "failed" | "cancelled" | "disconnected";
}

export type AirSubagentUpdate = SubagentSpawned | SubagentStateUpdate;

/** The announcement: a name (the launch's title), the task (its prompt, else its description). */
export function subagentSpawned(
  subagentSessionId: string,
  info: { title?: string; description?: string; prompt?: string },
): SubagentSpawned {
  const name = cleanSingleLine(info.title ?? "") || cleanSingleLine(info.description ?? "");
  const prompt = cleanMultiline(info.prompt ?? "").trim();
  const task = prompt || cleanMultiline(info.description ?? "").trim() || "Delegated task";
  return {
    sessionUpdate: "subagent_spawned",
    subagentSessionId,
    name: name || `Agent ${subagentSessionId.slice(-8)}`,
    task,
    ...(prompt ? { prompt } : {}),
    capabilities: {},
  };
}

/** The end of a child's work, in AIR's words. */
export function subagentEnded(
  subagentSessionId: string,
  stopReason: "end_turn" | "cancelled" | "error",
): SubagentStateUpdate {
  const state =
    stopReason === "end_turn" ? "completed" : stopReason === "cancelled" ? "cancelled" : "failed";
  return { sessionUpdate: "subagent_state_update", subagentSessionId, state };
}

/** The id of a child's generation `n` (the first keeps the child's own id). */
export const generationId = (base: string, n: number): string =>
  n === 1 ? base : `${base}:generation:${n}`;
