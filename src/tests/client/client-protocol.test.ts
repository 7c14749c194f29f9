// The terminal client against a stub ACP agent in the same process: the client side of
// permission-extension.md ("Client requirements") and of ACP cancellation.
import {
  agent,
  methods,
  type AgentContext,
  type ClientCapabilities,
  type RequestPermissionRequest,
} from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { TerminalClient } from "../../client/client.js";
import { KeyQueue } from "../../client/input.js";
import type { Key } from "../../client/keys.js";
import type { AnswerPolicy } from "../../client/policy.js";
import { createStyle } from "../../client/style.js";
import { questionForm } from "../../questions/form.js";
import { unsafeStrings } from "../support/unsafe-text.js";

const CWD = "/home/user/project";
type Script = (client: AgentContext, sessionId: string) => Promise<void>;

interface Harness {
  capabilities: ClientCapabilities | undefined;
  cancels: number;
  setModes: string[];
  /** Resolves with the client's exit code once its prompts ran. */
  done: Promise<number>;
  output(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
}

const running: Array<() => void> = [];
afterEach(() => running.splice(0).forEach((close) => close()));

/** A stub agent whose `session/prompt` runs `script`, and the terminal client connected to it. */
function start(
  script: Script,
  options: {
    answer: AnswerPolicy | "interactive";
    keys?: KeyQueue;
    mode?: string;
    feedback?: string;
  },
): Harness {
  let out = "";
  let turnCancelled = false;
  const harness: Harness = {
    capabilities: undefined,
    cancels: 0,
    setModes: [],
    done: Promise.resolve(0),
    output: () => out,
    async waitFor(pattern, timeoutMs = 3_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(out)) {
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${pattern}; output:\n${out}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
  const stub = agent({ name: "stub" })
    .onRequest(methods.agent.initialize, ({ params }) => {
      harness.capabilities = params.clientCapabilities ?? undefined;
      return {
        protocolVersion: 1,
        agentCapabilities: {},
        authMethods: [],
        agentInfo: { name: "stub-agent", version: "1.0.0" },
      };
    })
    .onRequest(methods.agent.session.new, () => ({
      sessionId: "s1",
      modes: {
        currentModeId: "default",
        availableModes: [
          { id: "default", name: "Manual" },
          { id: "plan", name: "Plan" },
        ],
      },
    }))
    .onRequest(methods.agent.session.setMode, ({ params }) => {
      harness.setModes.push(params.modeId);
      return {};
    })
    .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
      await script(client, params.sessionId);
      return { stopReason: turnCancelled ? "cancelled" : "end_turn" };
    })
    .onNotification(methods.agent.session.cancel, () => {
      harness.cancels++;
      turnCancelled = true;
    });
  const terminal = new TerminalClient(
    {
      output: { write: (text) => void (out += text), columns: () => 100 },
      style: createStyle(false),
      spinner: false,
      ...(options.keys ? { keys: options.keys } : {}),
    },
    {
      cwd: CWD,
      prompts: ["Go."],
      answer: options.answer,
      ...(options.mode ? { mode: options.mode } : {}),
      ...(options.feedback ? { feedback: options.feedback } : {}),
    },
  );
  const connection = terminal.app().connect(stub);
  running.push(() => connection.close());
  harness.done = terminal.run(connection.agent);
  return harness;
}

const key = (name: string): Key => ({ name, sequence: name });
const typed = (text: string): Key[] => [...text].map((c) => ({ sequence: c }));

function bashRequest(sessionId: string, meta?: Record<string, unknown>): RequestPermissionRequest {
  return {
    sessionId,
    toolCall: { toolCallId: "t1", title: "npm test", kind: "execute", status: "pending" },
    options: [
      { optionId: "allow-once", name: "Yes", kind: "allow_once" },
      {
        optionId: "allow-with-updates",
        name: "Yes, and don't ask again for npm test commands",
        kind: "allow_always",
      },
      { optionId: "reject", name: "No", kind: "reject_once" },
    ],
    ...(meta ? { _meta: meta } : {}),
  };
}

describe("capabilities and forms", () => {
  it("advertises form elicitation and answers an AskUserQuestion form by policy with the first choice", async () => {
    let answer: unknown;
    const h = start(
      async (client, sessionId) => {
        const form = questionForm([
          {
            question: "Which one?",
            header: "Pick",
            multiSelect: false,
            options: [{ label: "A" }, { label: "B" }],
          },
        ]);
        answer = await client.request(methods.client.elicitation.create, {
          sessionId,
          toolCallId: "q1",
          mode: "form",
          ...form,
        });
      },
      { answer: "allow-once" },
    );
    expect(await h.done).toBe(0);
    expect(h.capabilities?.elicitation?.form).toEqual({});
    expect(answer).toEqual({ action: "accept", content: { question_0: "A" } });
    expect(h.output()).toContain("Question: Which one?");
    expect(h.output()).toContain('✓ Pick = "A"');
  });

  it("renders an agent's form without its escape sequences, controls or bidi overrides, and answers with its exact values", async () => {
    const hostile = "\u001b]52;c;eA==\u0007\u001b[2J\u009b31m\u202e\u2066";
    let answer: unknown;
    const h = start(
      async (client, sessionId) => {
        answer = await client.request(methods.client.elicitation.create, {
          sessionId,
          mode: "form",
          message: `Pick${hostile}`,
          requestedSchema: {
            type: "object",
            properties: {
              [`plan${hostile}`]: { type: "string", enum: [`pro${hostile}`] },
              size: {
                type: "string",
                title: `Size${hostile}`,
                oneOf: [
                  { const: `xl${hostile}`, title: "" },
                  { const: "s", title: `S${hostile}` },
                ],
              },
              note: { type: "string", description: `Say${hostile}`, default: `hi${hostile}` },
            },
          },
        });
      },
      { answer: "allow-once" },
    );
    expect(await h.done).toBe(0);
    expect(unsafeStrings(h.output())).toEqual([]);
    expect(h.output()).toContain('✓ plan]52;c;eA==[2J31m = "pro]52;c;eA==[2J31m"');
    expect(answer).toEqual({
      action: "accept",
      content: { [`plan${hostile}`]: `pro${hostile}`, size: `xl${hostile}`, note: `hi${hostile}` },
    });
  });

  it("answers a form interactively: a choice, then the optional Other text", async () => {
    const keys = new KeyQueue();
    let answer: unknown;
    const h = start(
      async (client, sessionId) => {
        const form = questionForm([
          { question: "Which one?", multiSelect: false, options: [{ label: "A" }, { label: "B" }] },
        ]);
        answer = await client.request(methods.client.elicitation.create, {
          sessionId,
          mode: "form",
          ...form,
        });
      },
      { answer: "interactive", keys },
    );
    await h.waitFor(/Esc to cancel/);
    keys.push(key("down"));
    keys.push(key("return"));
    await h.waitFor(/Enter to skip/);
    typed("both").forEach((k) => keys.push(k));
    keys.push(key("return"));
    expect(await h.done).toBe(0);
    expect(answer).toEqual({
      action: "accept",
      content: { question_0: "B", question_0_custom: "both" },
    });
  });
});

describe("permission requests (permission-extension.md, client requirements)", () => {
  it("renders the subject from the announced tool call when the request carries only its id, and returns the offered id exactly", async () => {
    let response: unknown;
    const h = start(
      async (client, sessionId) => {
        await client.notify(methods.client.session.update, {
          sessionId,
          update: {
            sessionUpdate: "tool_call",
            toolCallId: "t9",
            title: "Delete build output",
            kind: "delete",
            status: "pending",
            rawInput: { command: "rm -rf build" },
            content: [{ type: "content", content: { type: "text", text: "rm -rf build" } }],
            locations: [{ path: `${CWD}/build` }],
          },
        });
        response = await client.request(methods.client.session.requestPermission, {
          sessionId,
          toolCall: { toolCallId: "t9" },
          options: [
            { optionId: "ok:1 ✓", name: "Allow", kind: "allow_once" },
            { optionId: "NO", name: "Deny", kind: "reject_once" },
          ],
        });
      },
      { answer: "allow-once" },
    );
    expect(await h.done).toBe(0);
    expect(response).toEqual({ outcome: { outcome: "selected", optionId: "ok:1 ✓" } });
    const out = h.output();
    expect(out).toContain("╭─ Permission: Delete build output");
    expect(out).toContain("│ ↳ build");
    expect(out).toContain("│ rm -rf build");
    expect(out).toContain("╰─ ✓ Allow\n");
    expect(out).not.toContain("ok:1 ✓"); // the option id is the agent's, not for people
  });

  it("shows the extension's title and description, and ignores unknown _meta and future versions", async () => {
    const responses: unknown[] = [];
    const h = start(
      async (client, sessionId) => {
        responses.push(
          await client.request(
            methods.client.session.requestPermission,
            bashRequest(sessionId, {
              permission: {
                version: 1,
                title: "Run npm test?",
                description: "Reason: approval",
                later: [1],
              },
              "vendor.future": { anything: true },
            }),
          ),
        );
        responses.push(
          await client.request(
            methods.client.session.requestPermission,
            bashRequest(sessionId, { permission: { version: 7, title: "Future" } }),
          ),
        );
      },
      { answer: "allow-always" },
    );
    expect(await h.done).toBe(0);
    expect(responses).toEqual([
      { outcome: { outcome: "selected", optionId: "allow-with-updates" } },
      { outcome: { outcome: "selected", optionId: "allow-with-updates" } },
    ]);
    const out = h.output();
    expect(out).toContain("╭─ Permission: Run npm test?\n│ Reason: approval\n│ npm test\n");
    expect(out).toContain("╭─ Permission: npm test\n");
    expect(out).not.toContain("Future");
  });

  it("selects with the arrow keys, and a rejection carries the feedback typed", async () => {
    const keys = new KeyQueue();
    const responses: unknown[] = [];
    const h = start(
      async (client, sessionId) => {
        responses.push(
          await client.request(methods.client.session.requestPermission, bashRequest(sessionId)),
        );
        responses.push(
          await client.request(methods.client.session.requestPermission, bashRequest(sessionId)),
        );
      },
      { answer: "interactive", keys },
    );
    await h.waitFor(/❯ 1\. Yes/);
    keys.push(key("down"));
    await h.waitFor(/❯ 2\. Yes, and don't ask again/);
    keys.push(key("return"));
    await h.waitFor(/Permission: npm test[\s\S]*Permission: npm test/);
    keys.push({ name: "3", sequence: "3" }); // a digit chooses at once
    await h.waitFor(/Feedback for Claude/);
    typed("use yarn").forEach((k) => keys.push(k));
    keys.push(key("return"));
    expect(await h.done).toBe(0);
    expect(responses).toEqual([
      { outcome: { outcome: "selected", optionId: "allow-with-updates" } },
      {
        outcome: { outcome: "selected", optionId: "reject" },
        _meta: { permission: { feedback: "use yarn" } },
      },
    ]);
    expect(h.output()).toContain("✓ Yes, and don't ask again for npm test commands");
    expect(h.output()).toContain("feedback: use yarn");
  });

  it("settles a pending request with { outcome: cancelled } when the agent cancels it ($/cancel_request)", async () => {
    const keys = new KeyQueue();
    let response: unknown;
    const h = start(
      async (client, sessionId) => {
        const withdraw = new AbortController();
        const pending = client.request(
          methods.client.session.requestPermission,
          bashRequest(sessionId),
          {
            cancellationSignal: withdraw.signal,
          },
        );
        await h.waitFor(/Esc to cancel/);
        withdraw.abort();
        response = await pending;
      },
      { answer: "interactive", keys },
    );
    expect(await h.done).toBe(0);
    expect(response).toEqual({ outcome: { outcome: "cancelled" } });
    expect(h.output()).toContain("⊘ cancelled (withdrawn by the agent)");
    expect(h.cancels).toBe(0);
  });

  it("a tool call that fails after the user interrupted says interrupted, not the agent's rejection text", async () => {
    const keys = new KeyQueue();
    const h = start(
      async (client, sessionId) => {
        await client.request(methods.client.session.requestPermission, bashRequest(sessionId));
        await client.notify(methods.client.session.update, {
          sessionId,
          update: {
            sessionUpdate: "tool_call_update",
            toolCallId: "t1",
            status: "failed",
            content: [
              {
                type: "content",
                content: {
                  type: "text",
                  text: "The user doesn't want to proceed with this tool use.",
                },
              },
            ],
          },
        });
      },
      { answer: "interactive", keys },
    );
    await h.waitFor(/Esc to cancel/);
    keys.push(key("escape"));
    expect(await h.done).toBe(0);
    expect(h.output()).toContain("└ ⊘ npm test: interrupted");
    expect(h.output()).not.toContain("doesn't want to proceed");
    expect(h.output()).not.toContain("failed");
  });

  it("Esc cancels the request and the turn: session/cancel, then { outcome: cancelled }", async () => {
    const keys = new KeyQueue();
    let response: unknown;
    const h = start(
      async (client, sessionId) => {
        response = await client.request(
          methods.client.session.requestPermission,
          bashRequest(sessionId),
        );
      },
      { answer: "interactive", keys },
    );
    await h.waitFor(/Esc to cancel/);
    keys.push(key("escape"));
    expect(await h.done).toBe(0);
    expect(response).toEqual({ outcome: { outcome: "cancelled" } });
    expect(h.cancels).toBe(1);
    expect(h.output()).toContain("⊘ cancelled (Esc)");
    expect(h.output()).toContain("■ Turn ended (cancelled)");
  });

  it("--answer cancel answers cancelled and cancels the turn", async () => {
    let response: unknown;
    const h = start(
      async (client, sessionId) => {
        response = await client.request(
          methods.client.session.requestPermission,
          bashRequest(sessionId),
        );
      },
      { answer: "cancel" },
    );
    expect(await h.done).toBe(0);
    expect(response).toEqual({ outcome: { outcome: "cancelled" } });
    expect(h.cancels).toBe(1);
  });
});

describe("progress", () => {
  it("shows streamed text, plan entries, mode changes and tool status changes; sets the requested mode", async () => {
    const h = start(
      async (client, sessionId) => {
        const send = (update: Parameters<AgentContext["notify"]>[1]) =>
          client.notify(methods.client.session.update, update as never);
        for (const text of ["Hel", "lo ", "there."]) {
          await send({
            sessionId,
            update: {
              sessionUpdate: "agent_message_chunk",
              messageId: "m1",
              content: { type: "text", text },
            },
          });
        }
        await send({
          sessionId,
          update: {
            sessionUpdate: "plan",
            entries: [{ content: "Step one", status: "in_progress", priority: "high" }],
          },
        });
        await send({
          sessionId,
          update: { sessionUpdate: "current_mode_update", currentModeId: "default" },
        });
        await send({
          sessionId,
          update: {
            sessionUpdate: "tool_call",
            toolCallId: "r1",
            title: "Read a.txt",
            kind: "read",
            status: "in_progress",
            locations: [{ path: `${CWD}/a.txt`, line: 1 }],
          },
        });
        await send({
          sessionId,
          update: {
            sessionUpdate: "tool_call_update",
            toolCallId: "r1",
            status: "completed",
            content: [{ type: "content", content: { type: "text", text: "file text" } }],
            _meta: { unknownVendor: { x: 1 } },
          },
        });
      },
      { answer: "reject", mode: "plan" },
    );
    expect(await h.done).toBe(0);
    expect(h.setModes).toEqual(["plan"]);
    const out = h.output();
    expect(out).toContain("◆ Mode: Plan (plan)");
    expect(out).toContain("Hello there.");
    expect(out).toContain("◆ Tasks\n  ◐ Step one");
    expect(out).toContain("◆ Mode: Manual (default)");
    expect(out).toContain("● Read a.txt\n  ↳ a.txt:1\n  └ ◐ running");
    expect(out).toContain("  └ ✓ completed\n    file text");
  });
});

describe("start-up failures say what went wrong", () => {
  it("--mode with an id the agent does not offer fails, naming the modes it offers", async () => {
    const h = start(() => Promise.resolve(), { answer: "reject", mode: "bogus" });
    await expect(h.done).rejects.toThrow('No mode "bogus": this agent offers default, plan');
  });

  it("an agent that never answers initialize: a timeout that says so", async () => {
    const silent = agent({ name: "silent" }).onRequest(
      methods.agent.initialize,
      () => new Promise<never>(() => undefined),
    );
    const terminal = new TerminalClient(
      {
        output: { write: () => undefined, columns: () => 100 },
        style: createStyle(false),
        spinner: false,
      },
      { cwd: CWD, prompts: ["Go."], answer: "reject", initializeTimeoutMs: 100 },
    );
    const connection = terminal.app().connect(silent);
    running.push(() => connection.close());
    await expect(terminal.run(connection.agent)).rejects.toThrow(
      "The agent did not answer initialize within 0.1 s",
    );
  });
});
