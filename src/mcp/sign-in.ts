import { randomUUID } from "node:crypto";
import type { ClaudeQuery } from "../claude/query.js";
import type { McpServerStatus } from "../claude/types.js";
import { log } from "../logger.js";
import { cleanSingleLine } from "../util/text.js";
import { describeServer } from "./command.js";
import { webUrl, type ElicitationClient } from "./elicitation.js";

/** Claude Code stops waiting for the authorization's redirect after 5 minutes. */
export const SIGN_IN_WAIT_MS = 5 * 60_000;
const WAIT_WORDS = `${SIGN_IN_WAIT_MS / 60_000} minutes`;
const SIGN_IN_POLL_MS = 500;

/** What a sign-in needs from the ACP client (SessionClient provides it). */
export interface SignInClient extends Pick<
  ElicitationClient,
  "supportsUrlElicitation" | "elicitUrl"
> {
  completeElicitation(elicitationId: string): Promise<void>;
}

/** How `/mcp auth` ended: the agent's answer, and whether the turn was cancelled. */
export interface SignInOutcome {
  text: string;
  cancelled?: boolean;
}

const CANCELLED: SignInOutcome = { text: "Signing in was cancelled.", cancelled: true };

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * `/mcp auth <server>`: Claude Code starts the server's OAuth flow and names the page to
 * visit; a client with URL elicitation opens it for the user and the turn waits until
 * Claude Code has the token and the server is connected (its tools usable from the next
 * prompt on), then `elicitation/complete`. A client without URL elicitation gets the page
 * as text and the turn ends at once. Cancelling the turn withdraws the request.
 */
export async function signIn(
  client: SignInClient,
  query: ClaudeQuery,
  server: string,
  signal: AbortSignal,
): Promise<SignInOutcome> {
  const name = `"${cleanSingleLine(server)}"`;
  let authorizationUrl: string | undefined;
  try {
    ({ authorizationUrl } = await query.authenticateMcpServer(server));
  } catch (error) {
    return { text: `Could not sign in to ${name}: ${cleanSingleLine(message(error))}` };
  }
  if (signal.aborted) return CANCELLED;
  if (authorizationUrl === undefined) return settled(query, server, signal);
  const page = webUrl.safeParse(authorizationUrl);
  if (!page.success) {
    log.warn(`the sign-in page of MCP server ${server} is not a web page`);
    return { text: `Could not sign in to ${name}: its sign-in page is not a web address.` };
  }
  const byHand = {
    text:
      `To sign in to MCP server ${name}, open this page: ${page.data}\n` +
      `Claude Code connects the server once you have signed in (within ${WAIT_WORDS}); \`/mcp\` shows it.`,
  };
  if (!client.supportsUrlElicitation) return byHand;
  const elicitationId = randomUUID();
  let action: string;
  try {
    ({ action } = await client.elicitUrl(
      { message: `Sign in to MCP server ${name}`, url: page.data, elicitationId },
      signal,
    ));
  } catch (error) {
    if (signal.aborted) return CANCELLED;
    log.warn(`the sign-in request for MCP server ${server} failed`, error);
    return byHand;
  }
  if (signal.aborted) return CANCELLED;
  if (action !== "accept") return { text: `Signing in to ${name} was not started.` };
  const outcome = await settled(query, server, signal);
  if (!outcome.cancelled) await client.completeElicitation(elicitationId);
  return outcome;
}

/** Waits until the server is connected (or failed, or gone), as far as the sign-in allows. */
async function settled(
  query: ClaudeQuery,
  server: string,
  signal: AbortSignal,
): Promise<SignInOutcome> {
  const now = await untilSettled(query, server, signal);
  if (signal.aborted) return CANCELLED;
  if (!now) return { text: `MCP server "${cleanSingleLine(server)}" is gone.` };
  if (now.status !== "needs-auth" && now.status !== "pending") return { text: describeServer(now) };
  return {
    text: `Signing in to "${cleanSingleLine(server)}" did not complete within ${WAIT_WORDS}. \`/mcp auth ${cleanSingleLine(server)}\` starts again.`,
  };
}

/**
 * The server's state once it has left "needs authentication" and "connecting", or as it
 * is when `timeoutMs` ran out or the signal ended the wait; undefined when it is gone.
 */
export async function untilSettled(
  query: ClaudeQuery,
  server: string,
  signal: AbortSignal,
  timeoutMs = SIGN_IN_WAIT_MS,
  pollMs = SIGN_IN_POLL_MS,
): Promise<McpServerStatus | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = (await query.mcpServerStatus()).find((s) => s.name === server);
    if (!now || (now.status !== "needs-auth" && now.status !== "pending")) return now;
    if (signal.aborted || Date.now() >= deadline) return now;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, pollMs);
      signal.addEventListener("abort", done, { once: true });
      function done(): void {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
    });
  }
}
