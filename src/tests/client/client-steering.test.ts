// The terminal client while a turn runs: with an agent that advertises `_meta.steering`,
// Enter sends what was typed into the running turn (`_session/steering`) and Tab queues it as
// the next prompt; without it, Enter queues. A steer the agent hands back becomes the next prompt.
import { agent, methods, type ContentBlock } from "@agentclientprotocol/sdk";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { STEERING_METHOD, type SteeringResponse } from "../../acp/steering.js";
import { TerminalClient } from "../../client/client.js";
import { KeyQueue } from "../../client/input.js";
import type { Key } from "../../client/keys.js";
import { createStyle } from "../../client/style.js";
import { deferred } from "../../util/deferred.js";
import { createAgent } from "../../agent.js";
import { fakeClaude, result } from "../support/fake-claude.js";
import { fakeTranscripts } from "../support/fake-transcripts.js";
import { isolatedEnv } from "../support/in-process.js";

const running: Array<() => void> = [];
afterEach(() => running.splice(0).forEach((close) => close()));

const key = (name: string): Key => ({ name, sequence: name === "tab" ? "\t" : "\r" });
const type = (keys: KeyQueue, text: string, end: Key) => {
  for (const c of text) keys.push({ sequence: c });
  keys.push(end);
};

interface SteerCall {
  prompt: ContentBlock[];
  _meta?: unknown;
}

/**
 * A stub agent (steering advertised or not) whose first prompt runs until `release`, and the
 * client with one prompt "Go." and a keyboard.
 */
function start(options: { steering: boolean; answer?: SteeringResponse }) {
  const prompts: string[] = [];
  const steers: SteerCall[] = [];
  const firstTurn = deferred<void>();
  let out = "";
  const stub = agent({ name: "stub" })
    .onRequest(methods.agent.initialize, () => ({
      protocolVersion: 1,
      agentCapabilities: { _meta: { claudeCode: { promptQueueing: true } } },
      authMethods: [],
      ...(options.steering ? { _meta: { steering: { supported: true } } } : {}),
    }))
    .onRequest(methods.agent.session.new, () => ({ sessionId: "s1" }))
    .onRequest(methods.agent.session.prompt, async ({ params }) => {
      const block = params.prompt[0];
      prompts.push(block?.type === "text" ? block.text : "?");
      if (prompts.length === 1) await firstTurn.promise;
      return { stopReason: "end_turn" };
    })
    .onRequest(
      STEERING_METHOD,
      { parse: (params: unknown) => params as SteerCall },
      ({ params }) => {
        steers.push(params);
        return Promise.resolve(options.answer ?? { outcome: "injected" });
      },
    );
  const keys = new KeyQueue();
  const terminal = new TerminalClient(
    {
      output: { write: (text) => void (out += text), columns: () => 100 },
      style: createStyle(false),
      spinner: false,
      keys,
    },
    { cwd: "/home/user/project", prompts: ["Go."], answer: "reject" },
  );
  const connection = terminal.app().connect(stub);
  running.push(() => connection.close());
  const done = terminal.run(connection.agent);
  const turnRunning = async () => {
    while (prompts.length === 0) await new Promise((r) => setTimeout(r, 5));
  };
  return {
    prompts,
    steers,
    keys,
    done,
    turnRunning,
    release: () => firstTurn.resolve(),
    output: () => out,
  };
}

describe("typing while a turn runs", () => {
  it("with an agent that steers, Enter sends the text into the running turn (_session/steering, idleBehavior promptRequired), not as another prompt", async () => {
    const client = start({ steering: true });
    await client.turnRunning();
    type(client.keys, "use tabs", key("return"));
    await expect.poll(() => client.steers.length).toBe(1);
    expect(client.steers[0]).toEqual({
      sessionId: "s1",
      prompt: [{ type: "text", text: "use tabs" }],
      _meta: { steering: { idleBehavior: "promptRequired" } },
    });
    client.release();
    expect(await client.done).toBe(0);
    expect(client.prompts).toEqual(["Go."]);
    expect(client.output()).toContain("› use tabs (sent to the running turn)");
  });

  it("Tab queues the text as the next prompt instead", async () => {
    const client = start({ steering: true });
    await client.turnRunning();
    type(client.keys, "next thing", key("tab"));
    client.release();
    expect(await client.done).toBe(0);
    expect(client.steers).toEqual([]);
    expect(client.prompts).toEqual(["Go.", "next thing"]);
  });

  it("a steer the agent hands back (promptRequired: the turn had ended) runs as the next prompt, and is said to be queued, not sent", async () => {
    const client = start({
      steering: true,
      answer: { outcome: "promptRequired", reason: "noRunningTurn" },
    });
    await client.turnRunning();
    type(client.keys, "too late", key("return"));
    await expect.poll(() => client.steers.length).toBe(1);
    client.release();
    expect(await client.done).toBe(0);
    expect(client.prompts).toEqual(["Go.", "too late"]);
    // It says what became of the line, once the agent answered: it was not steered.
    expect(client.output()).toContain(
      "› too late (no turn was running: queued as the next prompt)",
    );
    expect(client.output()).not.toContain("(sent to the running turn)");
  });

  it("with an agent that does not steer, Enter queues the text as the next prompt", async () => {
    const client = start({ steering: false });
    await client.turnRunning();
    type(client.keys, "after that", key("return"));
    client.release();
    expect(await client.done).toBe(0);
    expect(client.steers).toEqual([]);
    expect(client.prompts).toEqual(["Go.", "after that"]);
  });
});

describe("the client on this agent", () => {
  it("text typed while Claude works reaches Claude Code as one more user message of the running turn, which answers once", async () => {
    const claude = fakeClaude();
    const agentApp = createAgent({
      startQuery: claude.startQuery,
      transcripts: fakeTranscripts(),
      resolveExecutable: () => "/fake/claude",
      env: isolatedEnv(),
    });
    const keys = new KeyQueue();
    let out = "";
    const terminal = new TerminalClient(
      {
        output: { write: (text) => void (out += text), columns: () => 100 },
        style: createStyle(false),
        spinner: false,
        keys,
      },
      { cwd: mkdtempSync(join(tmpdir(), "client-steering-")), prompts: ["Go."], answer: "reject" },
    );
    const connection = terminal.app().connect(agentApp);
    running.push(() => connection.close());
    const done = terminal.run(connection.agent);
    await expect.poll(() => claude.started.length).toBe(1);
    const query = claude.started[0]!;
    const prompt = await query.waitForSent(1);
    type(keys, "use tabs", key("return"));
    const steer = await query.waitForSent(2);
    expect(steer.message.content).toEqual([{ type: "text", text: "use tabs" }]);
    query.emit(result({ extra: { user_message_uuids: [prompt.uuid, steer.uuid] } }));
    expect(await done).toBe(0);
    expect(query.sent).toHaveLength(2);
    expect(out.split("■ Turn ended (end_turn)")).toHaveLength(2); // one turn, answered once
  });
});
