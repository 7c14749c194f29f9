// A tiny ACP agent on stdio for the terminal client's tmux tests (run with `node --import tsx`):
// fast and deterministic where the client's own behaviour is under test, not Claude Code's.
//   "ask"  → a line of text, then a permission request whose durable option has a long rule
//            label
//   "md"   → a markdown reply (heading, bold, a fenced block)
//   "slow" → replies after 2 s (time to type ahead); session/cancel ends it at once;
//            "slow5" after 5 s; "tasks" sends a task list with one in progress, then 5 s
//   "tool" → a tool call that runs for half a second, then completes
//   "long" → one long paragraph streamed a word every 60 ms (word1 … word40), then "The end."
//   "stream" → a command shown as a terminal that prints a line every 150 ms, then exits 0
//   "plan" → a plan to approve (ExitPlanMode's switch_mode call), its text markdown
//   "run"  → a command shown as a terminal asks to run; rejected, it fails with Claude Code's
//            note to the model as its output and an unknown exit, as the agent sends it
//   "huge" → a tool call titled with HUGE characters, a task list whose entry has as many,
//            then a permission request with an option named so; answered, "Answered: <id>"
//   "huge-reply" → a reply of HUGE characters in one agent_message_chunk, then "The end."
//   "bad-update" → a session/update the ACP schema rejects (a tool call without its id),
//            then "After the bad update."
//   else   → `You said: <the prompt as JSON>`
import { Readable, Transform, Writable } from "node:stream";
import {
  agent,
  methods,
  ndJsonStream,
  type AgentContext,
  type PromptRequest,
  type PromptResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { HUGE, LONG_RULE } from "./client-stub-texts.js";

/** `HUGE` characters of words, on one line. */
const huge = (word: string): string =>
  `${word} `.repeat(Math.ceil(HUGE / (word.length + 1))).slice(0, HUGE);

const say = (text: string) =>
  ({
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text },
  }) as const;

/**
 * A command shown as a terminal (`tool_call` with terminal content and `terminal_info`);
 * returns what sends its later updates.
 */
async function command(
  client: AgentContext,
  sessionId: string,
  id: string,
  title: string,
  status: "pending" | "in_progress",
): Promise<(fields: Record<string, unknown>) => Promise<void>> {
  const notify = (update: Record<string, unknown>) =>
    client.notify(methods.client.session.update, {
      sessionId,
      update: update as SessionNotification["update"],
    });
  await notify({
    sessionUpdate: "tool_call",
    toolCallId: id,
    title,
    kind: "execute",
    status,
    content: [{ type: "terminal", terminalId: id }],
    _meta: { terminal_info: { terminal_id: id } },
  });
  return (fields) => notify({ sessionUpdate: "tool_call_update", toolCallId: id, ...fields });
}

/** Ends the running "slow" prompt. */
let cancel: (() => void) | undefined;

/**
 * STUB_STEERING=1: the stub takes steers (`_session/steering`): "injected" when a prompt
 * arrived before the steer and is not answered yet, else handed back (`promptRequired`), as
 * the agent does. Arrival is counted on the wire, before the SDK's dispatch.
 */
const steering = process.env.STUB_STEERING === "1";
let promptsArrived = 0;
let promptsAnswered = 0;

const app = agent({ name: "client-stub" })
  .onRequest(methods.agent.initialize, () => ({
    protocolVersion: 1,
    agentCapabilities: {},
    authMethods: [],
    agentInfo: { name: "client-stub", version: "1.0.0" },
    ...(steering ? { _meta: { steering: { supported: true } } } : {}),
  }))
  .onRequest("_session/steering", { parse: (params: unknown) => params }, () => {
    if (!steering) return Promise.reject(new Error("no steering here"));
    return promptsArrived > promptsAnswered
      ? { outcome: "injected" }
      : { outcome: "promptRequired", reason: "noRunningTurn" };
  })
  .onRequest(methods.agent.session.new, () => ({ sessionId: "s1" }))
  .onNotification(methods.agent.session.cancel, () => cancel?.())
  .onRequest(methods.agent.session.prompt, async (request) => {
    try {
      return await answer(request);
    } finally {
      promptsAnswered++;
    }
  });

/** The prompt's scripted answer, by its text. */
async function answer({
  params,
  client,
}: {
  params: PromptRequest;
  client: AgentContext;
}): Promise<PromptResponse> {
  const first = params.prompt[0];
  const text = first?.type === "text" ? first.text : "";
  const sessionId = params.sessionId;
  const send = (update: ReturnType<typeof say>) =>
    client.notify(methods.client.session.update, { sessionId, update });
  if (text === "ask") {
    await send(say("Let me check first.\n\n"));
    const answer = await client.request(methods.client.session.requestPermission, {
      sessionId,
      toolCall: { toolCallId: "t1", title: "npm test", kind: "execute", status: "pending" },
      options: [
        { optionId: "once", name: "Yes", kind: "allow_once" },
        { optionId: "always", name: LONG_RULE, kind: "allow_always" },
        { optionId: "no", name: "No", kind: "reject_once" },
      ],
    });
    const chosen = answer.outcome.outcome === "selected" ? answer.outcome.optionId : "none";
    await send(say(`Answered: ${chosen}`));
  } else if (text === "suggest") {
    await send(say("Suggesting."));
    // The prediction comes after the turn's answer, as Claude Code sends it.
    setTimeout(() => {
      void client.notify(methods.client.session.update, {
        sessionId,
        update: {
          sessionUpdate: "session_info_update",
          _meta: { promptSuggestions: { suggestions: [{ text: "run the tests" }] } },
        },
      });
    }, 300);
  } else if (text === "md") {
    await send(say("## Summary\n\nThis is **bold** and `code`.\n\n```js\nconst x = 1;\n```\n"));
  } else if (text === "tool") {
    await client.notify(methods.client.session.update, {
      sessionId,
      update: {
        sessionUpdate: "tool_call",
        toolCallId: "t2",
        title: "Build",
        status: "in_progress",
      },
    });
    await new Promise((r) => setTimeout(r, 500));
    await client.notify(methods.client.session.update, {
      sessionId,
      update: { sessionUpdate: "tool_call_update", toolCallId: "t2", status: "completed" },
    });
  } else if (text === "stream") {
    const update = await command(client, sessionId, "t5", "npm run build", "in_progress");
    for (let i = 1; i <= 6; i++) {
      await new Promise((r) => setTimeout(r, 150));
      await update({ _meta: { terminal_output: { terminal_id: "t5", data: `step ${i}\n` } } });
    }
    await update({
      status: "completed",
      _meta: { terminal_exit: { terminal_id: "t5", exit_code: 0, signal: null } },
    });
    await send(say("Built."));
  } else if (text === "plan") {
    const answer = await client.request(methods.client.session.requestPermission, {
      sessionId,
      toolCall: {
        toolCallId: "t4",
        title: "Approve Plan",
        kind: "switch_mode",
        status: "pending",
        content: [
          {
            type: "content",
            content: {
              type: "text",
              text: "# Plan: Test negative numbers\n\n1. Add `assert.equal(add(-2, -3), -5)` to **test.js**.\n2. Run `npm test`.",
            },
          },
        ],
      },
      options: [
        { optionId: "yes", name: "Yes, manually approve edits", kind: "allow_once" },
        { optionId: "no", name: "No, keep planning", kind: "reject_once" },
      ],
    });
    const chosen = answer.outcome.outcome === "selected" ? answer.outcome.optionId : "none";
    await send(say(`Answered: ${chosen}`));
  } else if (text === "run") {
    const call = await command(client, sessionId, "t3", "npm test", "pending");
    const answer = await client.request(methods.client.session.requestPermission, {
      sessionId,
      toolCall: { toolCallId: "t3" },
      options: [
        { optionId: "once", name: "Yes", kind: "allow_once" },
        { optionId: "no", name: "No", kind: "reject_once" },
      ],
    });
    const allowed = answer.outcome.outcome === "selected" && answer.outcome.optionId === "once";
    const output = allowed
      ? "tests passed\n"
      : "The user doesn't want to proceed with this tool use. STOP what you are doing.";
    await call({
      status: allowed ? "completed" : "failed",
      _meta: {
        terminal_output: { terminal_id: "t3", data: output },
        terminal_exit: { terminal_id: "t3", exit_code: allowed ? 0 : null, signal: null },
      },
    });
  } else if (text === "huge") {
    await client.notify(methods.client.session.update, {
      sessionId,
      update: {
        sessionUpdate: "tool_call",
        toolCallId: "t6",
        title: huge("title"),
        status: "in_progress",
      },
    });
    await client.notify(methods.client.session.update, {
      sessionId,
      update: {
        sessionUpdate: "plan",
        entries: [{ content: huge("task"), status: "in_progress", priority: "medium" }],
      },
    });
    const answer = await client.request(methods.client.session.requestPermission, {
      sessionId,
      toolCall: { toolCallId: "t6" },
      options: [
        { optionId: "once", name: "Yes", kind: "allow_once" },
        { optionId: "huge", name: huge("option"), kind: "allow_always" },
        { optionId: "no", name: "No", kind: "reject_once" },
      ],
    });
    const chosen = answer.outcome.outcome === "selected" ? answer.outcome.optionId : "none";
    await send(say(`Answered: ${chosen}`));
  } else if (text === "huge-reply") {
    await send(say(huge("reply")));
    await send(say("\n\nThe end."));
  } else if (text === "bad-update") {
    await client.notify(methods.client.session.update, {
      sessionId,
      update: { sessionUpdate: "tool_call" } as SessionNotification["update"],
    });
    await send(say("After the bad update."));
  } else if (text === "long") {
    for (let i = 1; i <= 40; i++) {
      await send(say(`word${i} `));
      await new Promise((r) => setTimeout(r, 60));
    }
    await send(say("\n\nThe end."));
  } else if (text === "slow" || text === "slow5" || text === "tasks") {
    if (text === "tasks") {
      await client.notify(methods.client.session.update, {
        sessionId,
        update: {
          sessionUpdate: "plan",
          entries: [
            { content: "Find the bug in add()", status: "completed", priority: "medium" },
            { content: "Fixing add()", status: "in_progress", priority: "medium" },
            { content: "Run the tests", status: "pending", priority: "medium" },
          ],
        },
      });
    }
    const cancelled = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), text === "slow" ? 2_000 : 5_000);
      cancel = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
    cancel = undefined;
    if (cancelled) return { stopReason: "cancelled" };
    await send(say("Slow done."));
  } else {
    await send(say(`You said: ${JSON.stringify(text)}`));
  }
  return { stopReason: "end_turn" };
}

/** The client's lines as they arrive, prompts counted. */
let partial = "";
const arrivals = new Transform({
  transform(chunk: Buffer, _encoding, done) {
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) if (line.includes('"method":"session/prompt"')) promptsArrived++;
    done(null, chunk);
  },
});

const connection = app.connect(
  ndJsonStream(
    Writable.toWeb(process.stdout),
    Readable.toWeb(process.stdin.pipe(arrivals)) as ReadableStream<Uint8Array>,
  ),
);
void connection.closed.then(() => process.exit(0));
