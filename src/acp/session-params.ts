import type { ContentBlock, McpServer } from "@agentclientprotocol/sdk";
import { z } from "zod";

/**
 * The params of the requests that open a session (new, load, resume, fork), read with the
 * unstable schema's fields this agent acts on: the stable SDK app's parser drops
 * `systemPrompt`, and knows no `session/fork`, so these methods are registered with these
 * parsers instead. The shapes follow ACP's; what is not read here passes through.
 */

/** The RFD's `systemPrompt` as it comes: its mode and blocks are checked by the core. */
export interface RequestedSystemPrompt {
  mode: string;
  content: ReadonlyArray<{ type: string; text?: unknown }>;
}

export interface OpenSessionParams {
  cwd: string;
  mcpServers?: McpServer[] | null;
  additionalDirectories?: string[] | null;
  systemPrompt?: RequestedSystemPrompt | null;
  _meta?: Record<string, unknown> | null;
}

export interface SavedSessionRequest extends OpenSessionParams {
  sessionId: string;
}

/** A fork at one message (the fork-at-message RFD): the `messageId` a chunk carried. */
export interface ForkSessionRequest extends SavedSessionRequest {
  messageId?: string | null;
}

/** `session/fork` is in ACP's unstable API; the stable app takes it as a custom method. */
export const FORK_METHOD = "session/fork";

const envVariable = z.looseObject({ name: z.string(), value: z.string() });
const header = z.looseObject({ name: z.string(), value: z.string() });
const mcpServer = z.union([
  z.looseObject({
    type: z.literal("http"),
    name: z.string(),
    url: z.string(),
    headers: z.array(header),
  }),
  z.looseObject({
    type: z.literal("sse"),
    name: z.string(),
    url: z.string(),
    headers: z.array(header),
  }),
  z.looseObject({
    name: z.string(),
    command: z.string(),
    args: z.array(z.string()),
    env: z.array(envVariable),
  }),
]);

const systemPrompt = z.looseObject({
  mode: z.string(),
  content: z.array(z.looseObject({ type: z.string() })),
});

const open = z.looseObject({
  cwd: z.string(),
  mcpServers: z.array(mcpServer).nullish(),
  additionalDirectories: z.array(z.string()).nullish(),
  systemPrompt: systemPrompt.nullish(),
  _meta: z.record(z.string(), z.unknown()).nullish().catch(undefined),
});

const saved = open.extend({ sessionId: z.string() });

/** Validates session/new params; a failure becomes invalid params at the protocol edge. */
export const newSessionParams = {
  parse: (params: unknown): OpenSessionParams => open.parse(params),
};

/** Validates load and resume params. */
export const savedSessionParams = {
  parse: (params: unknown): SavedSessionRequest => saved.parse(params),
};

const fork = saved.extend({ messageId: z.string().min(1).max(200).nullish() });

/** Validates fork params. */
export const forkSessionParams = {
  parse: (params: unknown): ForkSessionRequest => fork.parse(params),
};

/** `session/set_title` is in ACP's unstable API too. */
/** The session-rewind RFD: keep the conversation up to a message, drop the rest. */
export const REWIND_METHOD = "session/rewind";
/** The same RFD: a prompt's turn run again with new content, answered as session/prompt. */
export const EDIT_PROMPT_METHOD = "session/edit_prompt";

/** Message ids are Claude Code's uuids and the API's message ids. */
const messageId = z.string().min(1).max(200);
/**
 * `_meta.claudeCode.rewindFiles`: the files Claude changed after the cut go back too
 * (`true`), or, on session/rewind, are only counted and nothing changes (`"dryRun"`).
 */
const rewindMeta = (files: z.ZodType<true | "dryRun">) =>
  z
    .object({ claudeCode: z.object({ rewindFiles: files.optional() }).optional() })
    .nullish()
    .transform((meta) => {
      const choice = meta?.claudeCode?.rewindFiles;
      return choice === "dryRun" ? ("dryRun" as const) : choice ? ("restore" as const) : undefined;
    });
const rewind = z.looseObject({
  sessionId: z.string(),
  toMessageId: messageId,
  _meta: rewindMeta(z.union([z.literal(true), z.literal("dryRun")])),
});
const editPrompt = z.looseObject({
  sessionId: z.string(),
  messageId,
  newContent: z.array(z.looseObject({ type: z.string() })).min(1),
  _meta: rewindMeta(z.literal(true)),
});

export const rewindParams = {
  parse: (params: unknown): z.infer<typeof rewind> => rewind.parse(params),
};
export const editPromptParams = {
  parse: (params: unknown): z.infer<typeof editPrompt> & { newContent: ContentBlock[] } =>
    editPrompt.parse(params) as z.infer<typeof editPrompt> & { newContent: ContentBlock[] },
};

export const SET_TITLE_METHOD = "session/set_title";

// `_meta.claudeAgentAcp.allowCwdChange` as on load (session-meta.ts).
const changeMeta = z.record(z.string(), z.unknown()).nullish().catch(undefined);
const setTitle = z.looseObject({ sessionId: z.string(), title: z.string(), _meta: changeMeta });

/** Validates set_title params. */
export const setTitleParams = {
  parse: (params: unknown): z.infer<typeof setTitle> => setTitle.parse(params),
};

/** `session/archive` and `session/unarchive` are in ACP's unstable API too. */
export const ARCHIVE_METHOD = "session/archive";
export const UNARCHIVE_METHOD = "session/unarchive";
export const SESSION_STATUS_METHOD = "session/status";

const sessionOnly = z.looseObject({ sessionId: z.string(), _meta: changeMeta });

/** Validates archive, unarchive and status params. */
export const sessionIdParams = {
  parse: (params: unknown): z.infer<typeof sessionOnly> => sessionOnly.parse(params),
};

/** The stable parser drops the unstable `archived` filter of session/list. */
const list = z.looseObject({
  cwd: z.string().nullish(),
  cursor: z.string().nullish(),
  archived: z.string().nullish(),
  _meta: z.record(z.string(), z.unknown()).nullish().catch(undefined),
});

/** Validates session/list params. */
export const listSessionsParams = {
  parse: (params: unknown): z.infer<typeof list> => list.parse(params ?? {}),
};
