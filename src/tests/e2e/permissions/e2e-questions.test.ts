// End-to-end: AskUserQuestion through ACP form elicitation against the real Claude Code.
// A client that shows forms is asked with `elicitation/create`; its answer, decline or
// cancel reaches the model. A client without forms never sees the question.
import {
  methods,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
} from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { lastToolResults } from "../../../scripted-api/index.js";
import { type E2E, shareAgents, startE2E, stopAllE2E, timed } from "../../support/e2e/index.js";
import { statusesOf, toolCallState, toolNames } from "../../support/e2e-turns/index.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

const QUESTION = {
  questions: [
    {
      question: "Which color should the button be?",
      header: "Color",
      multiSelect: false,
      options: [
        { label: "Red", description: "Warm and loud" },
        { label: "Blue", description: "Calm" },
      ],
    },
  ],
};

const ASK = {
  content: [
    { type: "tool_use" as const, id: "toolu_ask", name: "AskUserQuestion", input: QUESTION },
  ],
};
const CONTINUE = { content: [{ type: "text" as const, text: "Carrying on." }] };

interface Asked {
  e2e: E2E;
  sessionId: string;
  elicitations: CreateElicitationRequest[];
}

/** A client with form elicitation that answers every `elicitation/create` with `answer`. */
async function askWithClientAnswering(answer: CreateElicitationResponse): Promise<Asked> {
  const elicitations: CreateElicitationRequest[] = [];
  const e2e = await startE2E({
    scenario: [ASK, CONTINUE],
    clientCapabilities: { elicitation: { form: {} } },
    extendClient: (app) =>
      app.onRequest(methods.client.elicitation.create, ({ params }) => {
        elicitations.push(params);
        return answer;
      }),
  });
  const { sessionId } = await e2e.newSession();
  return { e2e, sessionId, elicitations };
}

/** What the model was told about the question (the tool result in the next request). */
function questionResult(e2e: E2E) {
  return e2e.api
    .mainRequests()
    .flatMap((r) => lastToolResults(r))
    .find((r) => r.tool_use_id === "toolu_ask");
}

describe("a client with form elicitation", () => {
  it("is asked with a form, and its answer reaches the model in the tool result", async () => {
    const { e2e, sessionId, elicitations } = await askWithClientAnswering({
      action: "accept",
      content: { question_0: "Blue" },
    });

    expect(await e2e.prompt(sessionId, "Ask me.")).toMatchObject({ stopReason: "end_turn" });

    expect(toolNames(e2e.api.mainRequests()[0])).toContain("AskUserQuestion");
    expect(elicitations).toHaveLength(1);
    expect(elicitations[0]).toMatchObject({
      sessionId,
      mode: "form",
      toolCallId: "toolu_ask",
      message: "Which color should the button be?",
      requestedSchema: {
        type: "object",
        properties: {
          question_0: {
            type: "string",
            title: "Color",
            oneOf: [
              { const: "Red", title: "Red", description: "Warm and loud" },
              { const: "Blue", title: "Blue", description: "Calm" },
            ],
          },
          question_0_custom: { type: "string", title: "Other" },
        },
      },
    });
    expect(e2e.permissions.records).toEqual([]); // a form, not a permission dialog
    expect(questionResult(e2e)).toMatchObject({ is_error: false });
    expect(questionResult(e2e)?.text).toContain('"Which color should the button be?"="Blue"');
    expect(toolCallState(e2e, sessionId, "toolu_ask")).toMatchObject({
      status: "completed",
      rawOutput: { answers: { "Which color should the button be?": "Blue" } },
    });
  });

  it("tells Claude the user skipped when the client declines, and the turn goes on", async () => {
    const { e2e, sessionId, elicitations } = await askWithClientAnswering({ action: "decline" });

    expect(await e2e.prompt(sessionId, "Ask me.")).toMatchObject({ stopReason: "end_turn" });

    expect(elicitations).toHaveLength(1);
    expect(questionResult(e2e)).toMatchObject({
      is_error: false,
      text: "The user did not answer the questions.",
    });
    expect(toolCallState(e2e, sessionId, "toolu_ask")).toMatchObject({
      status: "completed",
      rawOutput: { answers: {} },
    });
    expect(e2e.api.mainRequests()).toHaveLength(2);
  });

  it("gives Claude no answer when the client cancels, and the prompt settles without hanging", async () => {
    const { e2e, sessionId, elicitations } = await askWithClientAnswering({ action: "cancel" });

    const { ms } = await timed(e2e.prompt(sessionId, "Ask me.").catch((error: unknown) => error));

    expect(ms).toBeLessThan(10_000);
    expect(elicitations).toHaveLength(1);
    expect(statusesOf(e2e, sessionId, "toolu_ask").at(-1)).toBe("failed");
    expect(statusesOf(e2e, sessionId, "toolu_ask")).not.toContain("completed");
    expect(JSON.stringify(e2e.api.requests.map((r) => r.body))).not.toContain('="Red"');
    expect(JSON.stringify(e2e.api.requests.map((r) => r.body))).not.toContain('="Blue"');
  });

  it("tells Claude 'Tool use aborted' when the client cancels, and the turn goes on to end_turn", async () => {
    const { e2e, sessionId } = await askWithClientAnswering({ action: "cancel" });

    const response = await e2e.prompt(sessionId, "Ask me.");

    expect(response.stopReason).toBe("end_turn");
    expect(questionResult(e2e)).toMatchObject({ is_error: true });
    expect(questionResult(e2e)?.text).toContain("Tool use aborted");
  });
});

describe("a client without form elicitation", () => {
  it("never sees AskUserQuestion: the tool is not offered, and a call made anyway asks nothing", async () => {
    const e2e = await startE2E({ scenario: [ASK, CONTINUE] });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Ask me.")).toMatchObject({ stopReason: "end_turn" });

    expect(toolNames(e2e.api.mainRequests()[0])).not.toContain("AskUserQuestion");
    expect(toolNames(e2e.api.mainRequests()[0])).toContain("Bash"); // the list is real
    expect(e2e.transcript.calls("elicitation/create")).toEqual([]);
    expect(e2e.permissions.records).toEqual([]);
    expect(questionResult(e2e)).toMatchObject({ is_error: true });
    expect(questionResult(e2e)?.text).toContain("No such tool available: AskUserQuestion");
    expect(toolCallState(e2e, sessionId, "toolu_ask").status).toBe("failed");
  });
});
