// `/mcp auth <server>`: signing in to a remote MCP server that needs OAuth, on a fake
// Claude Code. Claude Code names the page; the client opens it (URL elicitation) or the
// user gets it as text; the turn waits for the server to connect, or for a cancel.
import { methods, type ClientCapabilities } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { McpServerStatus } from "../../claude/types.js";
import { mcpServerNotice, parseMcpCommand } from "../../mcp/command.js";
import { untilSettled } from "../../mcp/sign-in.js";
import type { FakeClaudeQuery } from "../support/fake-claude.js";
import type { ElicitationHandler } from "../support/in-process.js";
import { fakeSession } from "../support/fake-session.js";

const URL_CLIENT: ClientCapabilities = { elicitation: { url: {} } };
const PAGE = "https://auth.example/authorize?x=1";
const NEEDS_AUTH: McpServerStatus = { name: "remote", status: "needs-auth" };
const CONNECTED: McpServerStatus = {
  name: "remote",
  status: "connected",
  tools: [{ name: "whoami" }],
};

/** A session whose Claude Code knows `remote`, which needs authentication. */
async function signingIn(
  clientCapabilities: ClientCapabilities,
  onElicitation?: ElicitationHandler,
) {
  const session = await fakeSession({
    clientCapabilities,
    ...(onElicitation ? { onElicitation } : {}),
  });
  session.query.mcpServers = [NEEDS_AUTH];
  const send = (text: string) =>
    session.agent.request(methods.agent.session.prompt, {
      sessionId: session.sessionId,
      prompt: [{ type: "text", text }],
    });
  /** The agent's answers to `/mcp` (not the notice that the server needs authentication). */
  const answers = () =>
    session.updates.flatMap(({ update: u }) =>
      u.sessionUpdate === "agent_message_chunk" &&
      u.content.type === "text" &&
      (u._meta as { claudeCode?: { kind?: string } } | undefined)?.claudeCode?.kind === "mcpServer"
        ? [u.content.text]
        : [],
    );
  return { ...session, send, answers };
}

/** The user completes the sign-in: Claude Code reconnects the server a little later. */
function connectsLater(query: () => FakeClaudeQuery) {
  return () => {
    setTimeout(() => (query().mcpServers = [CONNECTED]), 20);
    return { action: "accept" as const };
  };
}

describe("/mcp auth <server>", () => {
  it("sends a client with URL elicitation to the sign-in page and ends once the server is connected, with elicitation/complete", async () => {
    const late: { query?: FakeClaudeQuery } = {};
    const s = await signingIn(
      URL_CLIENT,
      connectsLater(() => late.query!),
    );
    late.query = s.query;

    expect(await s.send("/mcp auth remote")).toEqual({ stopReason: "end_turn" });

    expect(s.query.mcpControls).toEqual(["auth remote"]);
    expect(s.elicitations).toEqual([
      expect.objectContaining({
        sessionId: s.sessionId,
        mode: "url",
        url: PAGE,
        message: 'Sign in to MCP server "remote"',
      }),
    ]);
    expect(s.completedElicitations).toEqual([
      (s.elicitations[0] as { elicitationId: string }).elicitationId,
    ]);
    expect(s.answers()).toEqual(["**remote**: connected, 1 tool"]);
    expect(s.query.sent).toEqual([]);
  });

  it("gives a client without URL elicitation the page as text and ends at once", async () => {
    const s = await signingIn({});

    expect(await s.send("/mcp auth remote")).toEqual({ stopReason: "end_turn" });

    expect(s.elicitations).toEqual([]);
    expect(s.answers()).toEqual([
      `To sign in to MCP server "remote", open this page: ${PAGE}\n` +
        "Claude Code connects the server once you have signed in (within 5 minutes); `/mcp` shows it.",
    ]);
  });

  it("withdraws the sign-in request when the turn is cancelled", async () => {
    let withdrawn: AbortSignal | undefined;
    const s = await signingIn(URL_CLIENT, (_request, signal) => {
      withdrawn = signal;
      return new Promise(() => undefined); // the user never answers
    });

    const answer = s.send("/mcp auth remote");
    await expect.poll(() => s.elicitations.length).toBe(1);
    await s.agent.notify(methods.agent.session.cancel, { sessionId: s.sessionId });

    expect(await answer).toEqual({ stopReason: "cancelled" });
    await expect.poll(() => withdrawn?.aborted).toBe(true);
    expect(s.completedElicitations).toEqual([]);
  });

  it("stops waiting for the server when the turn is cancelled after the page was opened", async () => {
    const s = await signingIn(URL_CLIENT, () => ({ action: "accept" }));

    const answer = s.send("/mcp auth remote");
    await expect.poll(() => s.elicitations.length).toBe(1);
    await s.agent.notify(methods.agent.session.cancel, { sessionId: s.sessionId });

    expect(await answer).toEqual({ stopReason: "cancelled" });
    expect(s.completedElicitations).toEqual([]);
    expect(s.answers()).toEqual(["Signing in was cancelled."]);
  });

  it("starts nothing more when the user declines to open the page", async () => {
    const s = await signingIn(URL_CLIENT, () => ({ action: "decline" }));

    expect(await s.send("/mcp auth remote")).toEqual({ stopReason: "end_turn" });

    expect(s.answers()).toEqual(['Signing in to "remote" was not started.']);
    expect(s.completedElicitations).toEqual([]);
  });

  it("answers with Claude Code's reason when it cannot sign in to the server", async () => {
    const s = await signingIn(URL_CLIENT);
    s.query.mcpSignIn = new Error('Server type "stdio" does not support OAuth authentication');

    expect(await s.send("/mcp auth remote")).toEqual({ stopReason: "end_turn" });

    expect(s.elicitations).toEqual([]);
    expect(s.answers()).toEqual([
      'Could not sign in to "remote": Server type "stdio" does not support OAuth authentication',
    ]);
  });

  it("never opens a sign-in page that is not a web page", async () => {
    const s = await signingIn(URL_CLIENT);
    s.query.mcpSignIn = { authorizationUrl: "file:///etc/passwd" };

    await s.send("/mcp auth remote");

    expect(s.elicitations).toEqual([]);
    expect(s.answers()).toEqual([
      'Could not sign in to "remote": its sign-in page is not a web address.',
    ]);
  });

  it("sends and shows the sign-in page as the address it parses to: no control character, line break or bidi override of it reaches the client", async () => {
    const page = "https://auth.example/authorize?x=1\u001b[2J\n&y=\u202e2 3";
    const shown = "https://auth.example/authorize?x=1%1B[2J&y=%E2%80%AE2%203";
    const opened = await signingIn(URL_CLIENT, () => ({ action: "decline" }));
    opened.query.mcpSignIn = { authorizationUrl: page };
    const byHand = await signingIn({});
    byHand.query.mcpSignIn = { authorizationUrl: page };

    await opened.send("/mcp auth remote");
    await byHand.send("/mcp auth remote");

    expect(opened.elicitations).toEqual([expect.objectContaining({ mode: "url", url: shown })]);
    expect(byHand.answers()).toEqual([expect.stringContaining(`open this page: ${shown}\n`)]);
  });

  it("asks nothing when Claude Code needs no one (it holds a token), and reports the server", async () => {
    const s = await signingIn(URL_CLIENT);
    s.query.mcpSignIn = {};
    s.query.mcpServers = [CONNECTED];

    await s.send("/mcp auth remote");

    expect(s.elicitations).toEqual([]);
    expect(s.answers()).toEqual(["**remote**: connected, 1 tool"]);
  });

  it("asks Claude Code nothing for a server it does not know", async () => {
    const s = await signingIn(URL_CLIENT);

    await s.send("/mcp auth other");

    expect(s.query.mcpControls).toEqual([]);
    expect(s.answers()[0]).toMatch(/^No MCP server is named "other"\./);
  });
});

describe("waiting for a signed-in server", () => {
  it("gives up after its time with the server as it is", async () => {
    const query = { mcpServerStatus: () => Promise.resolve([NEEDS_AUTH]) };
    const now = await untilSettled(
      query as unknown as FakeClaudeQuery,
      "remote",
      new AbortController().signal,
      30,
      5,
    );
    expect(now).toEqual(NEEDS_AUTH);
  });
});

describe("the sign-in command", () => {
  it("is `/mcp auth <server>`, or `/mcp authenticate <server>`; without a server it shows the usage", () => {
    const text = (t: string) => parseMcpCommand([{ type: "text", text: t }]);
    expect(text("/mcp auth remote")).toEqual({ action: "auth", server: "remote" });
    expect(text("/mcp authenticate remote")).toEqual({ action: "auth", server: "remote" });
    expect(text("/mcp auth")).toEqual({ action: "usage" });
  });

  it("is named by the needs-authentication notice", () => {
    expect(mcpServerNotice(NEEDS_AUTH).description).toBe("`/mcp auth remote` signs in to it.");
  });
});
