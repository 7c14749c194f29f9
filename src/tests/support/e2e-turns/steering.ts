// The scripted turns of the steering tests, on v1 and v2: a tool that runs long enough for a
// steer to arrive, and a model that says what it was last told.
import { lastUserText, type ScriptTurn, type TurnSpec } from "../../../scripted-api/index.js";

/** What the steering tests steer with. */
export const STEER = "Also print the date.";

/** The model echoes what it was last told, so a test sees where the steer arrived. */
export const echo: TurnSpec = (request) => ({
  content: [{ type: "text", text: `I read: ${lastUserText(request)}` }],
});

/** A Bash call that runs three seconds, after `text` when given: a steer arrives meanwhile. */
export function waitingTurn(text?: string): ScriptTurn {
  return {
    content: [
      ...(text ? [{ type: "text" as const, text }] : []),
      {
        type: "tool_use",
        name: "Bash",
        input: { command: "sleep 3; echo slept", description: "Wait" },
      },
    ],
  };
}
