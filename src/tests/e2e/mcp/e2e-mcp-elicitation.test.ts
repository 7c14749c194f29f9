// End-to-end: an MCP server's `elicitation/create` against the real Claude Code. The
// question reaches the ACP client as `elicitation/create` (form or URL mode), and the
// user's answer, decline or cancel reaches the server exactly; a client that cannot show
// it never sees it and the server gets a decline.
import {
  methods,
  type ClientCapabilities,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
} from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { lastToolResults } from "../../../scripted-api/index.js";
import { type E2E, poll, shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";
import { ZED } from "../../support/client-handshakes.js";
import { askingServer, elicitationAnswers } from "../../support/e2e-mcp/index.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

const useTool = (name: string) => ({
  content: [
    { type: "tool_use" as const, id: `toolu_${name}`, name: `mcp__asking__${name}`, input: {} },
  ],
});
const DONE = { content: [{ type: "text" as const, text: "Done." }] };

interface Asking {
  e2e: E2E;
  sessionId: string;
  elicitations: CreateElicitationRequest[];
}

/** A session with the asking server, the client answering each elicitation with `answer`. */
async function sessionAsking(
  tool: string,
  answer: (request: CreateElicitationRequest) => Promise<CreateElicitationResponse>,
  capabilities: ClientCapabilities = { elicitation: { form: {}, url: {} } },
): Promise<Asking> {
  const elicitations: CreateElicitationRequest[] = [];
  const e2e = await startE2E({
    scenario: [useTool(tool), DONE],
    permission: { answer: "select", optionId: "allow-once" },
    clientCapabilities: capabilities,
    extendClient: (app) =>
      app.onRequest(methods.client.elicitation.create, ({ params }) => {
        elicitations.push(params);
        return answer(params);
      }),
  });
  const { sessionId } = await e2e.newSession({ mcpServers: [askingServer(e2e)] });
  return { e2e, sessionId, elicitations };
}

/** What the model was told the tool returned. */
function toolResultText(e2e: E2E, tool: string): string | undefined {
  return e2e.api
    .mainRequests()
    .flatMap((r) => lastToolResults(r))
    .find((r) => r.tool_use_id === `toolu_${tool}`)?.text;
}

describe("an MCP server's form elicitation", () => {
  it("is asked as an ACP form on the tool call, and the answer reaches the server and the model", async () => {
    const { e2e, sessionId, elicitations } = await sessionAsking("ask_name", () =>
      Promise.resolve({ action: "accept", content: { name: "Ada", newsletter: true } }),
    );

    expect(await e2e.prompt(sessionId, "Ask my name.")).toMatchObject({ stopReason: "end_turn" });

    expect(elicitations).toHaveLength(1);
    expect(elicitations[0]).toMatchObject({
      sessionId,
      mode: "form",
      toolCallId: "toolu_ask_name",
      requestedSchema: {
        required: ["name"],
        properties: { name: { type: "string", minLength: 1 }, newsletter: { type: "boolean" } },
      },
    });
    // The user sees which server asks.
    expect(elicitations[0]!.message).toBe('MCP server "asking": What is your name?');
    expect(elicitationAnswers(e2e)).toEqual([
      { action: "accept", content: { name: "Ada", newsletter: true } },
    ]);
    expect(toolResultText(e2e, "ask_name")).toContain('"name":"Ada"');
  });

  it("declined by the user, is declined to the server", async () => {
    const { e2e, sessionId, elicitations } = await sessionAsking("ask_name", () =>
      Promise.resolve({ action: "decline" }),
    );

    expect(await e2e.prompt(sessionId, "Ask my name.")).toMatchObject({ stopReason: "end_turn" });

    expect(elicitations).toHaveLength(1);
    expect(elicitationAnswers(e2e)).toEqual([{ action: "decline" }]);
    expect(toolResultText(e2e, "ask_name")).toContain('"action":"decline"');
  });

  it("answered with content that does not fit the form, never reaches the server: it is cancelled", async () => {
    const { e2e, sessionId } = await sessionAsking("ask_name", () =>
      Promise.resolve({ action: "accept", content: { name: "" } }),
    );

    expect(await e2e.prompt(sessionId, "Ask my name.")).toMatchObject({ stopReason: "end_turn" });

    expect(elicitationAnswers(e2e)).toEqual([{ action: "cancel" }]);
  });

  it("to a client without form elicitation (Zed's handshake today), is never sent and is declined to the server", async () => {
    const { e2e, sessionId, elicitations } = await sessionAsking(
      "ask_name",
      () => Promise.resolve({ action: "accept", content: { name: "Ada" } }),
      ZED.clientCapabilities,
    );

    expect(await e2e.prompt(sessionId, "Ask my name.")).toMatchObject({ stopReason: "end_turn" });

    expect(elicitations).toEqual([]);
    expect(e2e.transcript.calls("elicitation/create")).toEqual([]);
    expect(elicitationAnswers(e2e)).toEqual([{ action: "decline" }]);
  });

  it("open when the turn is cancelled, is withdrawn from the client, cancelled to the server, and the turn ends cancelled", async () => {
    const { e2e, sessionId, elicitations } = await sessionAsking(
      "ask_name",
      () => new Promise<never>(() => undefined),
    );

    const prompt = e2e.prompt(sessionId, "Ask my name.");
    const request = await e2e.transcript.waitFor((e) => e.message?.method === "elicitation/create");
    await e2e.cancel(sessionId);

    expect(await prompt).toMatchObject({ stopReason: "cancelled" });
    expect(elicitations).toHaveLength(1);
    const withdrawn = await e2e.transcript.waitFor((e) => e.message?.method === "$/cancel_request");
    expect(withdrawn.message?.params).toMatchObject({ requestId: request.message?.id });
    // The server is told cancel: its tool call does not wait forever either.
    const told = await poll(
      () => Promise.resolve(elicitationAnswers(e2e).length ? elicitationAnswers(e2e) : undefined),
      5_000,
    );
    expect(told).toEqual([{ action: "cancel" }]);
  });
});

describe("an MCP server's URL elicitation", () => {
  it("is asked as an ACP URL elicitation; accepted, it reaches the server, whose completion reaches the client", async () => {
    const completions: unknown[] = [];
    const elicitations: CreateElicitationRequest[] = [];
    const e2e = await startE2E({
      scenario: [useTool("open_link"), DONE],
      permission: { answer: "select", optionId: "allow-once" },
      clientCapabilities: { elicitation: { url: {} } },
      extendClient: (app) =>
        app
          .onRequest(methods.client.elicitation.create, ({ params }) => {
            elicitations.push(params);
            return { action: "accept" };
          })
          .onNotification(methods.client.elicitation.complete, ({ params }) => {
            completions.push(params);
          }),
    });
    const { sessionId } = await e2e.newSession({ mcpServers: [askingServer(e2e)] });

    expect(await e2e.prompt(sessionId, "Connect me.")).toMatchObject({ stopReason: "end_turn" });

    expect(elicitations).toEqual([
      expect.objectContaining({
        sessionId,
        mode: "url",
        url: "https://example.com/connect",
        elicitationId: "link-1",
        toolCallId: "toolu_open_link",
      }),
    ]);
    expect(elicitationAnswers(e2e)).toEqual([{ action: "accept" }]);
    await e2e.transcript.waitFor((e) => e.message?.method === "elicitation/complete");
    expect(completions).toEqual([expect.objectContaining({ elicitationId: "link-1" })]);
  });
});
