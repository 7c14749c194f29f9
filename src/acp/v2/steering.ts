import type * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import type { AgentCore } from "../../core/agent-core.js";
import { log } from "../../logger.js";
import { PROMPT_REQUIRED, type SteeringParams, type SteeringResponse } from "../steering.js";
import type { PromptLifecycle } from "./prompts.js";

/**
 * `_session/steering` on v2, with v1's rules (session/turns/steering.ts): the message joins the
 * running turn, or, with none running, is `promptRequired` when the client asked so. A
 * steer that starts a turn goes through v2's prompt lifecycle, so the client hears that turn
 * as a prompt's (its user message, `running`, then `idle`), in order with the others;
 * v1's own path would start it unreported.
 */
export function steerV2(
  core: AgentCore,
  prompts: PromptLifecycle,
  params: SteeringParams,
): SteeringResponse {
  const { sessionId, prompt, idleBehavior } = params;
  // Asked this way, the core never starts a turn itself: it joins one or says none runs.
  const steered = core.steer(sessionId, prompt, PROMPT_REQUIRED);
  if (steered.outcome !== "promptRequired" || idleBehavior === PROMPT_REQUIRED) return steered;
  // No request waits for this turn: its end (or failure) is its idle state_update. One
  // refused before it starts (its session closed, or cancelled) has nobody to tell.
  prompts
    .prompt(sessionId, prompt as v2.ContentBlock[], new AbortController().signal)
    .catch((error: unknown) => log.warn("a steered turn did not start", error));
  return { outcome: "startedNewTurn" };
}
