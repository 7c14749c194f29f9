// The model turns the bench plays. One scripted API serves every suite: the prompt says
// which reply it wants, so the agent and the direct-SDK baseline get the very same turns.
import { lastUserText } from "../../src/scripted-api/index.js";
import type { RecordedRequest, ScriptTurn, TurnFunction } from "../../src/scripted-api/index.js";
import { isRecord } from "../../src/util/records.js";

/** Prompt of the turn-overhead figure: text, three Bash calls needing permission, text. */
export const TURN_PROMPT = "bench:turn — write a.txt, b.txt and c.txt.";
/** Prompt of a short text reply (session start, memory). */
export const HELLO_PROMPT = "bench:hello — say hello.";
/** Prompt of the streaming figure; the count of deltas follows the colon. */
export const streamPrompt = (deltas: number): string => `bench:stream:${deltas} — stream.`;

/** The text of delta `i` of the streaming turn: its sequence number, parseable in order. */
export const deltaText = (i: number): string => `[${i}]`;
export const DELTA_PATTERN = /\[(\d+)\]/g;

export const TURN_COMMANDS = ["echo a > a.txt", "echo b > b.txt", "echo c > c.txt"];

/** True when the last message of the request is the user's tool results. */
function answersToolResults(request: RecordedRequest): boolean {
  const body = request.body;
  if (!isRecord(body) || !Array.isArray(body.messages)) return false;
  const last: unknown = body.messages.at(-1);
  if (!isRecord(last) || last.role !== "user" || !Array.isArray(last.content)) return false;
  return last.content.some((b) => isRecord(b) && b.type === "tool_result");
}

let toolUses = 0;

/** Chooses the reply from the request: the prompt names the scenario. */
export const benchTurn: TurnFunction = (request): ScriptTurn => {
  if (answersToolResults(request)) {
    return { content: [{ type: "text", text: "All three files are written.", chunks: 3 }] };
  }
  const prompt = lastUserText(request);
  if (prompt.includes("bench:turn")) {
    const batch = ++toolUses;
    return {
      content: [
        { type: "text", text: "I'll write the three files with Bash.", chunks: 3 },
        ...TURN_COMMANDS.map((command, i) => ({
          type: "tool_use" as const,
          id: `toolu_bench_${batch}_${i}`,
          name: "Bash",
          input: { command, description: `Write file ${i + 1}` },
        })),
      ],
    };
  }
  const stream = /bench:stream:(\d+)/.exec(prompt);
  if (stream) {
    const count = Number(stream[1]);
    return {
      content: [{ type: "text", chunks: Array.from({ length: count }, (_, i) => deltaText(i)) }],
    };
  }
  return { content: [{ type: "text", text: "Hello from the bench.", chunks: 3 }] };
};
