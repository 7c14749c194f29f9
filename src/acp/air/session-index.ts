// AIR's session index (extension version 1), as AIR and the published adapter speak it: a
// bounded `session/list` with AIR's row fields, `_session/batch_get`, rename, archive and
// unarchive, and a subscription to a directory's listing. Only a client that declared
// `sessionIndex` gets any of it. Wire shapes only: the protocol app (../../air/)
// hands the requests to the core.
import type { SessionInfo } from "@agentclientprotocol/sdk";
import { z } from "zod";
import { InvalidParamsError } from "../../errors.js";
import { isRecord } from "../../util/records.js";
import { airMetaOf, withAirMeta } from "./extension.js";

export const AIR_RENAME_METHOD = "_session/rename";
export const AIR_ARCHIVE_METHOD = "_session/archive";
export const AIR_UNARCHIVE_METHOD = "_session/unarchive";
export const AIR_BATCH_GET_METHOD = "_session/batch_get";
export const AIR_LIST_SUBSCRIBE_METHOD = "_session/list/subscribe";
export const AIR_LIST_UNSUBSCRIBE_METHOD = "_session/list/unsubscribe";
/** The notification a subscription's changes come in. */
export const AIR_LIST_CHANGES_METHOD = "_session/list/changes";

/** Rows per page unless the client asks for another number, and the most it may ask for. */
export const AIR_DEFAULT_LIMIT = 50;
export const AIR_MAX_LIMIT = 200;
/** Ids one `_session/batch_get` may name. */
export const AIR_MAX_BATCH = 1_000;

const sessionId = z.string().trim().min(1, "sessionId must be a non-empty string");

const sessionOnly = z.looseObject({ sessionId });
const rename = z.looseObject({ sessionId, title: z.string() });
const batchGet = z.looseObject({
  sessionIds: z
    .array(z.string().trim().min(1, "each session id must be a non-empty string"))
    .max(AIR_MAX_BATCH, `at most ${AIR_MAX_BATCH} session ids per request`)
    .refine((ids) => new Set(ids).size === ids.length, "the session ids must be distinct"),
});
const subscribe = z.looseObject({ cwd: z.string() });
const unsubscribe = z.looseObject({ subscriptionId: z.string() });

const parser = <T extends z.ZodType>(schema: T) => ({
  parse: (params: unknown): z.infer<T> => schema.parse(params),
});
export const airSessionParams = parser(sessionOnly);
export const airRenameParams = parser(rename);
export const airBatchGetParams = parser(batchGet);
export const airSubscribeParams = parser(subscribe);
export const airUnsubscribeParams = parser(unsubscribe);

/** AIR's archive filter, and the ACP filter (session/list's `archived`) it is. */
const ARCHIVE_FILTERS = { unarchived: "exclude", archived: "only", all: "include" } as const;

/** What `_meta.jetbrains.air.list` of a `session/list` asks for; each null or absent is the default. */
export interface AirListOptions {
  limit: number;
  archived: (typeof ARCHIVE_FILTERS)[keyof typeof ARCHIVE_FILTERS];
  includeWorktrees: boolean;
}

/** Reads `_meta.jetbrains.air.list`; a value of the wrong kind is refused, never guessed. */
export function airListOptions(meta: unknown): AirListOptions {
  const asked = airMetaOf(meta)?.list;
  const list = isRecord(asked) ? asked : {};
  const limit = list.limit ?? AIR_DEFAULT_LIMIT;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1) {
    throw new InvalidParamsError(
      "_meta.jetbrains.air.list.limit must be an integer of 1 or more.",
      {
        limit,
      },
    );
  }
  const archived = list.archived ?? "unarchived";
  if (typeof archived !== "string" || !Object.hasOwn(ARCHIVE_FILTERS, archived)) {
    throw new InvalidParamsError(
      `_meta.jetbrains.air.list.archived must be one of ${Object.keys(ARCHIVE_FILTERS).join(", ")}.`,
      { archived },
    );
  }
  const includeWorktrees = list.includeWorktrees ?? false;
  if (typeof includeWorktrees !== "boolean") {
    throw new InvalidParamsError("_meta.jetbrains.air.list.includeWorktrees must be a boolean.", {
      includeWorktrees,
    });
  }
  return {
    limit: Math.min(limit, AIR_MAX_LIMIT),
    archived: ARCHIVE_FILTERS[archived as keyof typeof ARCHIVE_FILTERS],
    includeWorktrees,
  };
}

/** A listing's row as this agent has it: its state, and whether Claude Code made its worktree. */
export interface IndexRow extends SessionInfo {
  archived: boolean;
  _meta: { claudeCode: { state: "running" | "failed" | "idle" } };
  agentWorktree?: true;
}

/** AIR's names of a row's state. */
const AIR_STATES = { running: "running", failed: "error", idle: "idle" } as const;

/** A row as AIR reads it: AIR's fields flat in `_meta.jetbrains.air`, beside the agent's own. */
export function airRow(row: IndexRow): SessionInfo {
  const { agentWorktree, ...info } = row;
  let meta: Record<string, unknown> = withAirMeta(info._meta, "archived", row.archived);
  meta = withAirMeta(meta, "state", AIR_STATES[row._meta.claudeCode.state]);
  if (agentWorktree) meta = withAirMeta(meta, "agentWorktree", true);
  return { ...info, _meta: meta };
}

/** `session_info_update`'s `_meta` telling AIR that a loaded session is archived or not. */
export function airArchivedMeta(archived: boolean): Record<string, unknown> {
  return withAirMeta(undefined, "archived", archived);
}
