// The terminal client's /rewind and Ctrl-R (the session-rewind RFD from the client's side):
// /rewind offers the last turns, shows what the files would do (a dry run), and rewinds to
// the end of the turn chosen, with the files if the user says so; Ctrl-R on a recalled prompt
// runs that turn again, edited (session/edit_prompt).
import { agent, methods, type AgentContext } from "@agentclientprotocol/sdk";
import { afterEach, expect, it } from "vitest";
import { EDIT_PROMPT_METHOD, REWIND_METHOD } from "../../acp/session-params.js";
import { TerminalClient } from "../../client/client.js";
import { KeyQueue } from "../../client/input.js";
import type { Key } from "../../client/keys.js";
import { createStyle } from "../../client/style.js";

const running: Array<() => void> = [];
afterEach(() => running.splice(0).forEach((close) => close()));

const ENTER: Key = { name: "return", sequence: "\r" };
const DOWN: Key = { name: "down", sequence: "\x1b[B" };
const UP: Key = { name: "up", sequence: "\x1b[A" };
const CTRL_R: Key = { name: "r", sequence: "\x12", ctrl: true };
const CTRL_D: Key = { name: "d", sequence: "\x04", ctrl: true };
const line = (keys: KeyQueue, text: string) => {
  for (const c of text) keys.push({ sequence: c });
  keys.push(ENTER);
};

interface Call {
  method: string;
  params: Record<string, unknown>;
}

/** A stub agent whose turns answer with ids, and the interactive client on it. */
function start() {
  const calls: Call[] = [];
  let out = "";
  let turns = 0;
  const answerTurn = async (client: AgentContext, sessionId: string) => {
    turns += 1;
    await client.notify(methods.client.session.update, {
      sessionId,
      update: {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: `Answer ${turns}.` },
        messageId: `msg_${turns}`,
      },
    });
    return { stopReason: "end_turn" as const, userMessageId: `u_${turns}` };
  };
  const record = { parse: (params: unknown) => params as Record<string, unknown> };
  const stub = agent({ name: "stub" })
    .onRequest(methods.agent.initialize, () => ({
      protocolVersion: 1,
      agentCapabilities: {},
      authMethods: [],
    }))
    .onRequest(methods.agent.session.new, () => ({ sessionId: "s1" }))
    .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
      calls.push({
        method: "session/prompt",
        params: params,
      });
      return answerTurn(client, params.sessionId);
    })
    .onRequest(REWIND_METHOD, record, ({ params }) => {
      calls.push({ method: REWIND_METHOD, params });
      const meta = params._meta as { claudeCode?: { rewindFiles?: unknown } } | undefined;
      const files = meta?.claudeCode?.rewindFiles;
      const report = {
        dryRun: files === "dryRun",
        filesChanged: ["/p/a.txt"],
        insertions: 1,
        deletions: 2,
        skippedLinks: 0,
      };
      return Promise.resolve({
        remainingMessageCount: 2,
        lastMessageId: params.toMessageId,
        ...(files ? { _meta: { claudeCode: { files: report } } } : {}),
      });
    })
    .onRequest(EDIT_PROMPT_METHOD, record, async ({ params, client }) => {
      calls.push({ method: EDIT_PROMPT_METHOD, params });
      return answerTurn(client, params.sessionId as string);
    });
  const keys = new KeyQueue();
  const terminal = new TerminalClient(
    {
      output: { write: (text) => void (out += text), columns: () => 100 },
      style: createStyle(false),
      spinner: false,
      keys,
    },
    { cwd: "/home/user/project", prompts: [], answer: "interactive" },
  );
  const connection = terminal.app().connect(stub);
  running.push(() => connection.close());
  const done = terminal.run(connection.agent);
  const waitFor = async (pattern: RegExp) => {
    const deadline = Date.now() + 3_000;
    while (!pattern.test(out)) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${pattern}:\n${JSON.stringify(out)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  /** The prompt is open for the `n`-th time (keys typed before it opens are not read). */
  const prompt = async (n: number) => {
    const deadline = Date.now() + 3_000;
    // Its first drawing hides the cursor; redrawings as keys come do not.
    while (out.split("\x1b[?25l›").length - 1 < n) {
      if (Date.now() > deadline) throw new Error(`no prompt #${n}:\n${JSON.stringify(out)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  return { calls, keys, done, waitFor, prompt, output: () => out };
}

it("/rewind offers the turns, shows the files a dry run counts, and rewinds to the end of the turn chosen with the files", async () => {
  const client = start();
  await client.prompt(1);
  line(client.keys, "First.");
  await client.prompt(2);
  line(client.keys, "Second.");
  await client.prompt(3);
  line(client.keys, "/rewind");
  await client.waitFor(/Rewind to the end of which turn/);
  client.keys.push(ENTER); // the first turn
  await client.waitFor(/Put them back too\?/);
  expect(client.output()).toContain("/p/a.txt (+1 −2)");
  client.keys.push(DOWN);
  client.keys.push(ENTER); // the conversation and the files
  await client.waitFor(/Rewound: 2 messages kept\. Files put back: \/p\/a\.txt/);
  const rewinds = client.calls.filter((c) => c.method === REWIND_METHOD).map((c) => c.params);
  expect(rewinds).toEqual([
    { sessionId: "s1", toMessageId: "msg_1", _meta: { claudeCode: { rewindFiles: "dryRun" } } },
    { sessionId: "s1", toMessageId: "msg_1", _meta: { claudeCode: { rewindFiles: true } } },
  ]);

  // ↑ recalls "First." (the second turn is gone), Ctrl-R runs it again, edited.
  await client.prompt(4);
  client.keys.push(UP);
  for (const c of " Again") client.keys.push({ sequence: c });
  client.keys.push(CTRL_R);
  await client.prompt(5);
  expect(client.output()).toContain("Answer 3.");
  expect(client.calls.at(-1)).toEqual({
    method: EDIT_PROMPT_METHOD,
    params: {
      sessionId: "s1",
      messageId: "u_1",
      newContent: [{ type: "text", text: "First. Again" }],
    },
  });
  client.keys.push(CTRL_D);
  expect(await client.done).toBe(0);
});

it("Ctrl-R on a prompt not recalled does nothing; /rewind backed out of rewinds nothing", async () => {
  const client = start();
  await client.prompt(1);
  line(client.keys, "First.");
  await client.prompt(2);
  for (const c of "new text") client.keys.push({ sequence: c });
  client.keys.push(CTRL_R);
  client.keys.push(ENTER);
  await client.prompt(3);
  line(client.keys, "/rewind");
  await client.waitFor(/Rewind to the end of which turn/);
  client.keys.push({ name: "escape", sequence: "\x1b" });
  await client.waitFor(/Not rewound\./);
  await client.prompt(4);
  expect(client.calls.map((c) => c.method)).toEqual(["session/prompt", "session/prompt"]);
  client.keys.push(CTRL_D);
  expect(await client.done).toBe(0);
});
