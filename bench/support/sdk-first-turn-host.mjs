// The direct-SDK baseline of the cold-path suite: one first turn in a fresh node process,
// as an application built on the SDK would run it. Like the agent's bin it applies the
// young-generation setting, then loads the SDK, calls query() with the options it is given
// (the agent's, see sdk-first-turn.ts) and sends the prompt: at once, or once the parent
// writes a line on stdin (after the query's initializationResult() and an idle pause).
// Each permission ask is allowed at once. Plain JavaScript: no TypeScript loader on the
// path. Prints one JSON line of milestones, on this process's clock (performance.now()),
// among them when the turn's system/init and its first stream event arrived.
import { performance } from "node:perf_hooks";
import process from "node:process";
import { createInterface } from "node:readline";
import "../../dist/runtime/heap-setup.js";

const { options, prompt, pause } = JSON.parse(process.argv[2]);
const { query } = await import("@anthropic-ai/claude-agent-sdk");
const marks = { loaded: performance.now(), asks: [] };

let push = () => undefined;
const sent = new Promise((resolve) => (push = resolve));
/** Streaming input: the prompt once it is sent, then open until the end. */
async function* input() {
  yield await sent;
  await new Promise(() => undefined);
}

/** @type {import("@anthropic-ai/claude-agent-sdk").CanUseTool} */
const allow = (_tool, toolInput) => {
  marks.asks.push(performance.now());
  return Promise.resolve({ behavior: "allow", updatedInput: toolInput });
};

marks.query = performance.now();
const q = query({
  prompt: input(),
  options: { ...options, canUseTool: allow, stderr: () => undefined },
});
const send = () => {
  marks.sent = performance.now();
  push({
    type: "user",
    message: { role: "user", content: [{ type: "text", text: prompt }] },
    parent_tool_use_id: null,
  });
};
void q.initializationResult().then(() => {
  marks.ready = performance.now();
  if (pause) process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
});
if (pause) {
  const lines = createInterface({ input: process.stdin });
  lines.once("line", () => send());
} else {
  send();
}
for await (const message of q) {
  if (message.type === "system" && message.subtype === "init") marks.init ??= performance.now();
  if (message.type === "stream_event") marks.firstEvent ??= performance.now();
  if (
    message.type === "stream_event" &&
    message.event.type === "content_block_delta" &&
    message.event.delta.type === "text_delta"
  ) {
    marks.firstText ??= performance.now();
  }
  if (message.type === "result") {
    marks.ended = performance.now();
    marks.subtype = message.subtype;
    break;
  }
}
process.stdout.write(`${JSON.stringify(marks)}\n`);
q.close();
process.exit(0);
