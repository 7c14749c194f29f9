// End-to-end: a hostile MCP server's elicitations against the real Claude Code. Its words
// reach the ACP client cleaned, the values it offers are refused rather than changed, a URL
// that hides its host behind userinfo and an id that could carry escape sequences are never
// forwarded; the server gets cancel for what cannot be asked. One agent for every case: each
// prompt runs one of the server's tools.
import {
  methods,
  type CompleteElicitationNotification,
  type CreateElicitationRequest,
} from "@agentclientprotocol/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { poll, startE2E, type E2E } from "../../support/e2e/index.js";
import { askingServer, elicitationAnswers } from "../../support/e2e-mcp/index.js";
import { unsafeStrings } from "../../support/unsafe-text.js";

/** What the client answers to a form: the server's own values. */
const CHOSEN = { plan: "pro", colour: "blue", extras: ["a"] };

let e2e: E2E;
let sessionId: string;
const elicitations: CreateElicitationRequest[] = [];
const completions: CompleteElicitationNotification[] = [];

beforeAll(async () => {
  e2e = await startE2E({
    permission: { answer: "select", optionId: "allow-once" },
    clientCapabilities: { elicitation: { form: {}, url: {} } },
    extendClient: (app) =>
      app
        .onRequest(methods.client.elicitation.create, ({ params }) => {
          elicitations.push(params);
          return params.mode === "form"
            ? { action: "accept", content: CHOSEN }
            : { action: "accept" };
        })
        .onNotification(methods.client.elicitation.complete, ({ params }) => {
          completions.push(params);
        }),
  });
  ({ sessionId } = await e2e.newSession({
    mcpServers: [askingServer(e2e, "asking", { MCP_HOSTILE: "1" })],
  }));
});
afterAll(() => e2e.stop());

/**
 * Runs the asking server's `tool` in a turn; what the client was asked and what the
 * server was answered during it.
 */
async function run(tool: string): Promise<{ asked: CreateElicitationRequest[]; told: unknown }> {
  const [askedBefore, toldBefore] = [elicitations.length, elicitationAnswers(e2e).length];
  e2e.api.enqueue({
    content: [{ type: "tool_use", id: `toolu_${tool}`, name: `mcp__asking__${tool}`, input: {} }],
  });
  expect(await e2e.prompt(sessionId, `Run ${tool}.`)).toMatchObject({ stopReason: "end_turn" });
  const told = elicitationAnswers(e2e).slice(toldBefore);
  expect(told).toHaveLength(1);
  return { asked: elicitations.slice(askedBefore), told: told[0] };
}

describe("a hostile MCP server's form", () => {
  it("reaches the client without escape sequences, controls or bidi overrides in any label, and the answer reaches the server as its own values", async () => {
    const { asked, told } = await run("ask_hostile_labels");

    expect(asked).toHaveLength(1);
    expect(unsafeStrings(asked[0])).toEqual([]);
    expect(asked[0]).toMatchObject({
      message: 'MCP server "asking": Choose a plan.hidden',
      requestedSchema: {
        properties: {
          plan: {
            title: "Plan",
            enum: ["basic", "pro"],
            oneOf: [
              { const: "basic", title: "Basicsecret" },
              { const: "pro", title: "Proorp" },
            ],
          },
          colour: {
            title: "Colour",
            oneOf: [
              { const: "red", title: "Red2J" },
              { const: "blue", title: "Blue" },
            ],
          },
          extras: {
            title: "Extras",
            items: {
              anyOf: [
                { const: "a", title: "A" },
                { const: "b", title: "B" },
              ],
            },
          },
        },
      },
    });
    // A default holding escape sequences is not offered at all: it is the server's value.
    const note = ["requestedSchema", "properties", "note"];
    expect(asked[0]).toHaveProperty([...note, "description"], "a link");
    expect(asked[0]).not.toHaveProperty([...note, "default"]);
    expect(told).toEqual({ action: "accept", content: CHOSEN });
  });

  it("offering a value that holds an escape sequence is never asked: the server gets cancel", async () => {
    const { asked, told } = await run("ask_hostile_values");

    expect(asked).toEqual([]);
    expect(told).toEqual({ action: "cancel" });
  });
});

describe("an MCP server's URL elicitation", () => {
  it("tells the user which host the browser will open, whatever the server's words say", async () => {
    const { asked } = await run("open_link");

    expect(asked).toEqual([
      expect.objectContaining({
        url: "https://example.com/connect",
        message: 'MCP server "asking" wants to open example.com: Connect your account.',
      }),
    ]);
  });

  it("for a URL with userinfo (https://example.com@evil.test/) is never sent to the client: the server gets cancel", async () => {
    const { asked, told } = await run("open_userinfo_link");

    expect(asked).toEqual([]);
    expect(JSON.stringify(e2e.transcript.calls("elicitation/create"))).not.toContain("evil.test");
    expect(told).toEqual({ action: "cancel" });
  });

  it("with an elicitationId holding escape sequences, a bidi override and a space, is never forwarded, nor is its completion", async () => {
    const { asked, told } = await run("open_hostile_id");

    expect(asked).toEqual([]);
    expect(told).toEqual({ action: "cancel" });
    // A well-formed one after it: once its completion is in, the hostile one would be too.
    const { asked: link } = await run("open_link");
    const id = link[0]?.mode === "url" ? link[0].elicitationId : undefined;
    const found = await poll(
      () => Promise.resolve(completions.find((c) => c.elicitationId === id)),
      5_000,
    );
    expect(found).toBeDefined();
    expect(unsafeStrings(completions)).toEqual([]);
    expect(unsafeStrings(e2e.transcript.calls("elicitation/complete"))).toEqual([]);
  });
});
