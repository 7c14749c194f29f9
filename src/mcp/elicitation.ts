import { randomUUID } from "node:crypto";
import type { CreateElicitationResponse, ElicitationSchema } from "@agentclientprotocol/sdk";
import { z } from "zod";
import type { McpElicitationRequest, McpElicitationResult } from "../claude/types.js";
import { log } from "../logger.js";
import { cleanMultiline, cleanSingleLine } from "../util/text.js";
import { formSchema, validAnswer } from "./form-schema.js";

/** What an MCP elicitation needs from the ACP client (SessionClient provides it). */
export interface ElicitationClient {
  readonly supportsFormElicitation: boolean;
  readonly supportsUrlElicitation: boolean;
  elicitForm(
    request: { message: string; requestedSchema: ElicitationSchema; toolCallId?: string },
    signal: AbortSignal,
  ): Promise<CreateElicitationResponse>;
  elicitUrl(
    request: { message: string; url: string; elicitationId: string; toolCallId?: string },
    signal: AbortSignal,
  ): Promise<CreateElicitationResponse>;
}

const DECLINE: McpElicitationResult = { action: "decline" };
const CANCEL: McpElicitationResult = { action: "cancel" };

/** A form request without a schema asks for nothing but consent. */
const EMPTY_FORM = { type: "object", properties: {} };

const answer = z.looseObject({ action: z.string(), content: z.unknown().optional() });
/**
 * Only web pages are opened for a server: no file:, javascript: or custom schemes, and no
 * userinfo (`https://example.com@evil.test/` opens evil.test). The page goes on as the
 * address it parses to (WHATWG), where control characters, spaces and bidi overrides are
 * percent-encoded (the parser accepts them, and the raw text would reach the user).
 */
export const webUrl = z
  .url({ protocol: /^https?$/ })
  .transform((url) => new URL(url))
  .refine((url) => url.username === "" && url.password === "")
  .transform((url) => url.href);

/**
 * A URL elicitation's id: 1 to 256 printable ASCII characters, no spaces (UUIDs, tokens).
 * The client matches the server's `elicitation/complete` to its request by this id, so the
 * id goes on exactly as the server sent it or not at all: a fresh one would never match.
 */
export const elicitationId = z.string().regex(/^[!-~]{1,256}$/);

/** The user sees which server is asking: a server's words alone could pass for anyone's. */
function attributed(request: McpElicitationRequest, page?: string): string {
  const server = `MCP server "${cleanSingleLine(request.serverName)}"`;
  // The host the browser opens comes first, in the parser's words (punycode, no userinfo):
  // the server's own words cannot disguise the destination, nor push it out of view.
  const asks = page ? `${server} wants to open ${new URL(page).host}` : server;
  return `${asks}: ${cleanMultiline(request.message)}`;
}

/**
 * An MCP server's `elicitation/create`, asked through ACP and answered to the server:
 * accept, decline and cancel map one to one. A client that cannot show the request gets
 * no request and the server a decline; a form answer that does not fit the form, an
 * unusable form or URL, a failed request and a withdrawn one (the turn was cancelled)
 * answer cancel. Never a hang: the signal withdraws the request from the client.
 */
export async function answerElicitation(
  client: ElicitationClient,
  request: McpElicitationRequest,
  context: { toolCallId?: string },
  signal: AbortSignal,
): Promise<McpElicitationResult> {
  const where = context.toolCallId ? { toolCallId: context.toolCallId } : {};
  const server = cleanSingleLine(request.serverName);
  const url = request.mode === "url";
  if (url ? !client.supportsUrlElicitation : !client.supportsFormElicitation) return DECLINE;
  let response: CreateElicitationResponse;
  try {
    if (url) {
      const page = webUrl.safeParse(request.url);
      if (!page.success) {
        log.warn(`MCP server ${server} asked to open an unusable URL`);
        return CANCEL;
      }
      const id = elicitationId.safeParse(request.elicitationId ?? randomUUID());
      if (!id.success) {
        log.warn(`MCP server ${server} asked with an unusable elicitation id`);
        return CANCEL;
      }
      response = await client.elicitUrl(
        {
          message: attributed(request, page.data),
          url: page.data,
          elicitationId: id.data,
          ...where,
        },
        signal,
      );
    } else {
      const requestedSchema = formSchema(request.requestedSchema ?? EMPTY_FORM);
      if (!requestedSchema) {
        log.warn(`MCP server ${server} asked with a form that cannot be shown`);
        return CANCEL;
      }
      response = await client.elicitForm(
        { message: attributed(request), requestedSchema, ...where },
        signal,
      );
    }
  } catch (error) {
    if (!signal.aborted) log.warn(`elicitation for MCP server ${server} failed`, error);
    return CANCEL;
  }
  if (signal.aborted) return CANCEL;
  const parsed = answer.safeParse(response);
  switch (parsed.success ? parsed.data.action : undefined) {
    case "accept": {
      if (url) return { action: "accept" };
      const content = validAnswer(request.requestedSchema ?? EMPTY_FORM, parsed.data?.content);
      if (content) return { action: "accept", content };
      log.warn(`the answer to MCP server ${server} does not fit its form`);
      return CANCEL;
    }
    case "decline":
      return DECLINE;
    default:
      // cancel, or an action we do not know: never taken for an answer.
      return CANCEL;
  }
}
