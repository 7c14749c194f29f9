// An MCP server's elicitation as the ACP client is asked it, with a recording fake client:
// what a hostile server's request may not carry to the user, and what the server is told.
import type { CreateElicitationResponse } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { McpElicitationRequest } from "../../../claude/types.js";
import { answerElicitation, type ElicitationClient } from "../../../mcp/elicitation.js";
import { unsafeStrings } from "../../support/unsafe-text.js";

const ESC = "\u001b";
const RLO = "\u202e";

/** A client with both kinds of elicitation that accepts with `content`, and what it was asked. */
function recordingClient(content?: Record<string, unknown>) {
  const asked: unknown[] = [];
  const answer = (request: unknown): Promise<CreateElicitationResponse> => {
    asked.push(request);
    return Promise.resolve(content ? { action: "accept", content } : { action: "accept" });
  };
  const client: ElicitationClient = {
    supportsFormElicitation: true,
    supportsUrlElicitation: true,
    elicitForm: answer,
    elicitUrl: answer,
  };
  return { client, asked };
}

function ask(client: ElicitationClient, request: Omit<McpElicitationRequest, "serverName">) {
  return answerElicitation(
    client,
    { serverName: "asking", ...request },
    {},
    new AbortController().signal,
  );
}

const PAGE = { mode: "url", message: "Connect your account.", elicitationId: "link-1" } as const;

describe("an MCP server's URL elicitation", () => {
  it.each([
    "https://example.com@evil.test/",
    "https://user:secret@evil.test/",
    "https://:secret@evil.test/",
    "http://example.com%2F@evil.test/",
    "https://example.com:443@evil.test/connect",
  ])("with userinfo (%s) is never asked: the server gets cancel", async (url) => {
    const { client, asked } = recordingClient();
    expect(await ask(client, { ...PAGE, url })).toEqual({ action: "cancel" });
    expect(asked).toEqual([]);
  });

  it.each([
    ["https://example.com/connect", "example.com"],
    ["https://EVIL.test:8443/x?to=https://example.com", "evil.test:8443"],
    ["https://еxample.com/", "xn--xample-2of.com"], // a Cyrillic е: the host as the browser has it
  ])("names the host the browser will open (%s), before the server's words", async (url, host) => {
    const { client, asked } = recordingClient();
    await ask(client, { ...PAGE, message: "Open https://example.com to connect.", url });
    expect(asked).toEqual([
      expect.objectContaining({
        message: `MCP server "asking" wants to open ${host}: Open https://example.com to connect.`,
      }),
    ]);
  });

  it.each([
    ["an escape sequence", `link${ESC}[2J`],
    ["a bidi override", `link${RLO}1`],
    ["a space", "link 1"],
    ["a newline", "link\n1"],
    ["a character beyond ASCII", "línk"],
    ["nothing", ""],
    ["too much (257 characters)", "x".repeat(257)],
  ])(
    "with an elicitationId holding %s is never asked: the server gets cancel",
    async (_what, id) => {
      const { client, asked } = recordingClient();
      const url = "https://example.com/connect";
      expect(await ask(client, { ...PAGE, url, elicitationId: id })).toEqual({ action: "cancel" });
      expect(asked).toEqual([]);
    },
  );

  it("passes a well-formed elicitationId on exactly: the client matches the server's completion by it", async () => {
    const { client, asked } = recordingClient();
    const elicitationId = "8f14e45f-ceea-467f-a9f8-4fa0e2c6a1b3~x.y_z:256/=";
    await ask(client, { ...PAGE, url: "https://example.com/", elicitationId });
    expect(asked).toEqual([expect.objectContaining({ elicitationId })]);
  });
});

describe("an MCP server's form elicitation", () => {
  it("names the server cleaned, as its message", async () => {
    const { client, asked } = recordingClient({});
    await answerElicitation(
      client,
      { serverName: `evil${ESC}]52;c;eA==\u0007${RLO}`, message: `Hi${ESC}[8m` },
      {},
      new AbortController().signal,
    );
    expect(asked).toEqual([expect.objectContaining({ message: 'MCP server "evil": Hi' })]);
  });

  it("with escape sequences in its labels reaches the client cleaned, and the answer the server its own value", async () => {
    const { client, asked } = recordingClient({ plan: "pro" });
    const requestedSchema = {
      type: "object",
      properties: {
        plan: {
          type: "string",
          title: `Plan${ESC}[8m`,
          enum: ["basic", "pro"],
          enumNames: [`Basic${RLO}`, `Pro${ESC}]52;c;eA==\u0007`],
        },
      },
    };
    const told = await ask(client, { mode: "form", message: "Choose.", requestedSchema });
    expect(unsafeStrings(asked)).toEqual([]);
    expect(told).toEqual({ action: "accept", content: { plan: "pro" } });
  });

  it("offering a value with an escape sequence is never asked: the server gets cancel", async () => {
    const { client, asked } = recordingClient({ plan: "pro" });
    const requestedSchema = { properties: { plan: { type: "string", enum: [`pro${ESC}[2J`] } } };
    expect(await ask(client, { mode: "form", message: "Choose.", requestedSchema })).toEqual({
      action: "cancel",
    });
    expect(asked).toEqual([]);
  });
});
