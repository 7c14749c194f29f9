// The first permission request of a process ran its builders cold: zod compiling the
// suggestion and answer schemas on first use, and V8 compiling each builder, about 10 ms
// against 1 ms for the next request, more while Claude Code starts on the same cores. Once
// per process, soon after the first session starts (and its Claude Code is still starting),
// a Bash request is built and answered here, and thrown away: nothing is sent or applied.
import type { CanUseToolContext } from "../claude/types.js";
import { PERMISSION_MODES } from "./modes.js";
import { toolCallFromToolUse } from "../tools/tool-call.js";
import { buildRequest } from "./build-request.js";
import { resultOfEffect } from "./effects.js";
import { parseClientAnswer } from "./response.js";

/** After session/new's answer, the early spawn and the SDK's load (sdk-query.ts). */
const WARM_UP_DELAY_MS = 20;

let scheduled = false;

/** Schedules the warm-up, the first time only. */
export function warmUpPermissionsSoon(): void {
  if (scheduled) return;
  scheduled = true;
  setTimeout(warmUpPermissions, WARM_UP_DELAY_MS).unref();
}

/** One request for a Bash call, built, answered and dropped. Returns the result for tests. */
export function warmUpPermissions(): ReturnType<typeof resultOfEffect> | undefined {
  const cwd = "/warm-up";
  const toolName = "Bash";
  const input = { command: "printf 'warm' > warm.txt", description: "Write a file" };
  const sdk: CanUseToolContext = {
    signal: new AbortController().signal,
    toolUseID: "toolu_warm_up",
    requestId: "warm-up",
    suggestions: [
      {
        type: "addRules",
        rules: [{ toolName, ruleContent: "printf:*" }],
        behavior: "allow",
        destination: "localSettings",
      },
    ],
  };
  const toolCall = toolCallFromToolUse(
    { id: sdk.toolUseID, name: toolName, input, parentToolUseId: null },
    { cwd },
  );
  const { choices } = buildRequest(toolName, input, sdk, toolCall, {
    cwd,
    homeDir: "/home/warm-up",
    workingDirectories: [cwd],
    plan: { availableModes: new Set(PERMISSION_MODES), planText: "" },
  });
  const first = choices[0];
  if (!first) return undefined;
  const answer = parseClientAnswer({
    outcome: { outcome: "selected", optionId: first.option.optionId },
  });
  return answer.kind === "selected" ? resultOfEffect(first.effect, input, undefined) : undefined;
}
