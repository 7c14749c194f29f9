// AIR's report of the files a turn changed (`agentFileChangeReport`, advertised; used once
// declared), as AIR and the published adapter speak it: a prompt asks for one in
// `_meta.jetbrains.air.agentFileChangeReportRequest {version: 1, requestId}`, and one
// `session_info_update` carries it after the turn, before the prompt's answer. A request of
// another shape, or with an id the session used before, gets no report (and no error).
import { isRecord } from "../../util/records.js";
import { AIR_CAPABILITIES, airDeclares, airMetaOf, withAirMeta } from "./extension.js";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of the report a prompt asks for, when the client declared reports and asked well. */
export function fileChangeRequestId(
  capabilities: { _meta?: unknown },
  promptMeta: unknown,
): string | undefined {
  if (!airDeclares(capabilities, AIR_CAPABILITIES.agentFileChangeReport)) return undefined;
  const request = airMetaOf(promptMeta)?.agentFileChangeReportRequest;
  if (!isRecord(request) || Object.keys(request).length !== 2 || request.version !== 1) return;
  const { requestId } = request;
  return typeof requestId === "string" && REQUEST_ID.test(requestId) ? requestId : undefined;
}

/** Why a report has no paths. */
export type Unavailable =
  "cancelled" | "timeout" | "invalidOutput" | "notReported" | "providerError";

/**
 * The `_meta` of the update that answers a request: the paths (never said to be complete:
 * Claude Code's checkpoints miss what only a command changed), or why there are none.
 */
export function fileChangeReportMeta(
  requestId: string,
  changes: { paths: readonly string[]; truncated: boolean } | { unavailable: Unavailable },
): Record<string, unknown> {
  const report =
    "unavailable" in changes
      ? { status: "unavailable", reason: changes.unavailable }
      : {
          status: "reported",
          paths: [...changes.paths],
          declaredComplete: false,
          truncated: changes.truncated,
        };
  return withAirMeta(undefined, AIR_CAPABILITIES.agentFileChangeReport, {
    version: 1,
    requestId,
    ...report,
  });
}
