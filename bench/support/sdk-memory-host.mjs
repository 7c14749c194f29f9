// The direct-SDK baseline of the memory suite: idle query() sessions held in a plain node
// process that loads the Claude Agent SDK and nothing else of the bench (no tsx, whose loader
// has a cost of its own), so its RSS compares with the agent's. It applies the agent's
// young-generation setting first, as the agent's bin does, so the two differ only by what
// the agent loads and keeps. Driven by sdk-memory.ts: one JSON command per stdin line, one
// JSON reply per stdout line.
import process from "node:process";
import { createInterface } from "node:readline";
import "../../dist/runtime/heap-setup.js";

// Loaded after the heap setting, as in the agent (a static import would load it before).
const { query } = await import("@anthropic-ai/claude-agent-sdk");

/** @type {import("@anthropic-ai/claude-agent-sdk").CanUseTool} */
const allow = (_tool, input) => Promise.resolve({ behavior: "allow", updatedInput: input });

/** Kept so that sessions stay referenced while idle, as the agent's are. */
const sessions = [];
let stop = () => undefined;
const stopped = new Promise((resolve) => (stop = resolve));

/** One prompt, then the input stays open: an idle session. */
async function* input(text) {
  yield {
    type: "user",
    message: { role: "user", content: [{ type: "text", text }] },
    parent_tool_use_id: null,
  };
  await stopped;
}

/**
 * Starts a session, sends its prompt and resolves at the turn's result. The messages are
 * read on to the end: leaving the loop would close the query.
 */
function open({ options, prompt }) {
  const q = query({
    prompt: input(prompt),
    options: { ...options, canUseTool: allow, stderr: () => undefined },
  });
  sessions.push(q);
  return new Promise((resolve, reject) => {
    void (async () => {
      for await (const message of q) {
        if (message.type === "result") resolve(message.subtype);
      }
      reject(new Error("the query ended before its result"));
    })().catch(reject);
  });
}

const reply = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
reply({ ready: true });

for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line);
  if (command.open) {
    open(command.open).then(
      (subtype) => reply({ id: command.id, result: subtype }),
      (error) => reply({ id: command.id, error: String(error) }),
    );
  }
}
stop();
for (const q of sessions) q.close();
process.exit(0);
