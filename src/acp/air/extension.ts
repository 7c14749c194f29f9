import type { SessionInfoUpdate } from "@agentclientprotocol/sdk";
import { isRecord } from "../../util/records.js";

// JetBrains AIR's versioned ACP extension, as AIR and the published adapter negotiate it: the
// client declares `_meta.jetbrains.air {version, capabilities}` in `initialize`, the agent
// answers with the capabilities it supports under the same key, and only an AIR client ever
// sees an AIR key.

/** The extension version this agent speaks. */
export const AIR_VERSION = 1;

/** The capabilities of version 1 this agent acts on; each name is defined here once. */
export const AIR_CAPABILITIES = {
  /** Client-declared: one `session_info_update` marks the end of a load's replay. */
  loadReplayEnd: "loadReplayEnd",
  /** Advertised: `session/new`'s `_meta.jetbrains.air.customInstructions` join the prompt. */
  customInstructions: "customInstructions",
  /** Client-declared: the session index (session-index.ts). */
  sessionIndex: "sessionIndex",
  /** Advertised, used once declared: typed failure reports (session-failure.ts). */
  sessionFailure: "sessionFailure",
  /** Advertised, used once declared: ExitPlanMode's plan shown as its file (tool-calls.ts). */
  planFile: "planFile",
  /** Advertised, used once declared: the files a turn changed, when asked (file-changes.ts). */
  agentFileChangeReport: "agentFileChangeReport",
  /** Advertised, used once declared: subagents as child sessions in AIR's draft (subagents.ts). */
  nativeSubagentSessions: "nativeSubagentSessions",
  /**
   * Advertised: a prompt is answered at its turn's result while its background subagents
   * still run, their updates and requests following. This agent does so for every client.
   */
  backgroundSubagents: "backgroundSubagents",
  /** Advertised, used once declared: background tasks in AIR's shape (async-tasks.ts). */
  asyncTasks: "asyncTasks",
  /** Advertised, used once declared: a file edit's permission request as a git patch (diff-patch.ts). */
  diffPatch: "diffPatch",
  /** Advertised, used once declared: the model option names its default's model (recommended-value.ts). */
  recommendedValue: "recommendedValue",
  /** Client-declared (never advertised): AIR renders a tool's input itself (tool-calls.ts). */
  rawInputRendering: "rawInputRendering",
} as const;

/** What the agent advertises to an AIR client, in its `initialize` answer. */
const ADVERTISED = [
  AIR_CAPABILITIES.customInstructions,
  AIR_CAPABILITIES.recommendedValue,
  AIR_CAPABILITIES.sessionFailure,
  AIR_CAPABILITIES.planFile,
  AIR_CAPABILITIES.agentFileChangeReport,
  AIR_CAPABILITIES.nativeSubagentSessions,
  AIR_CAPABILITIES.backgroundSubagents,
  AIR_CAPABILITIES.asyncTasks,
  AIR_CAPABILITIES.diffPatch,
];

/** The goal extension's method (goal.ts), and what the `initialize` answer tells AIR of it. */
export const AIR_GOAL_METHOD = "_session/goal";
const AIR_GOAL = { version: 1, controlMethod: AIR_GOAL_METHOD, actions: ["set", "clear"] };

/** What the agent advertises besides to a client that declared `sessionIndex`. */
export const SESSION_INDEX_CAPABILITIES = [
  AIR_CAPABILITIES.sessionIndex,
  "sessionBatchGet",
  "sessionArchive",
  "sessionRename",
  "sessionListSubscribe",
  "sessionWorktrees",
] as const;

/** The `air` object of a `_meta`, when there is one. */
export function airMetaOf(meta: unknown): Record<string, unknown> | undefined {
  const jetbrains = isRecord(meta) ? meta.jetbrains : undefined;
  const air = isRecord(jetbrains) ? jetbrains.air : undefined;
  return isRecord(air) ? air : undefined;
}

/** Whether the client is JetBrains AIR: it declared `_meta.jetbrains.air`. */
export function isAirClient(capabilities: { _meta?: unknown }): boolean {
  return airMetaOf(capabilities._meta) !== undefined;
}

/** Whether an AIR client of version 1 or later declared `capability`. */
export function airDeclares(capabilities: { _meta?: unknown }, capability: string): boolean {
  const air = airMetaOf(capabilities._meta);
  const version = air?.version;
  return (
    typeof version === "number" &&
    Number.isInteger(version) &&
    version >= AIR_VERSION &&
    Array.isArray(air?.capabilities) &&
    air.capabilities.includes(capability)
  );
}

/** `_meta` with one AIR payload under `jetbrains.air`, beside what it holds already. */
export function withAirMeta(
  meta: Record<string, unknown> | undefined,
  key: string,
  payload: unknown,
): Record<string, unknown> {
  const jetbrains = isRecord(meta?.jetbrains) ? meta.jetbrains : {};
  const air = isRecord(jetbrains.air) ? jetbrains.air : {};
  return {
    ...meta,
    jetbrains: { ...jetbrains, air: { ...air, version: AIR_VERSION, [key]: payload } },
  };
}

/** The `_meta` of the `initialize` answer: for an AIR client, what the agent advertises. */
export function airInitializeMeta(capabilities: { _meta?: unknown }): Record<string, unknown> {
  if (!isAirClient(capabilities)) return {};
  const index = airDeclares(capabilities, AIR_CAPABILITIES.sessionIndex);
  const advertised = [...ADVERTISED, ...(index ? SESSION_INDEX_CAPABILITIES : [])];
  return withAirMeta(withAirMeta(undefined, "capabilities", advertised), "goal", AIR_GOAL);
}

/** `_meta.jetbrains.air.customInstructions` of a session-opening request, when it is text. */
export function airCustomInstructions(meta: unknown): string | undefined {
  const instructions = airMetaOf(meta)?.[AIR_CAPABILITIES.customInstructions];
  return typeof instructions === "string" ? instructions : undefined;
}

/** The update after the last one a `session/load` replays, for a client that declared it. */
export function loadReplayEnd(capabilities: { _meta?: unknown }): SessionInfoUpdate | undefined {
  if (!airDeclares(capabilities, AIR_CAPABILITIES.loadReplayEnd)) return undefined;
  // No `title` and no `updatedAt`: a null would clear them.
  return { _meta: withAirMeta(undefined, AIR_CAPABILITIES.loadReplayEnd, true) };
}

/**
 * How a client is told of subagents as child sessions, if it is: ACP's unstable schema for a
 * client that declared `subagents`, AIR's draft for AIR once it declared either.
 */
export function childSessionsForm(capabilities: {
  _meta?: unknown;
  subagents?: unknown;
}): "acp" | "air" | undefined {
  const declared =
    Boolean(capabilities.subagents) ||
    airDeclares(capabilities, AIR_CAPABILITIES.nativeSubagentSessions);
  if (!declared) return undefined;
  return isAirClient(capabilities) ? "air" : "acp";
}
