import { z } from "zod";
import type { ContentBlock } from "@agentclientprotocol/sdk";

/**
 * Steering: a client puts a message into the turn that is running, instead of queueing it
 * as the next prompt. An interim extension (hence the `_`), advertised as
 * `_meta.steering.supported` in the initialize response; the shape is the one clients
 * that steer Claude Code and Codex adapters already send.
 */
export const STEERING_METHOD = "_session/steering";

/** The initialize response's top-level `_meta`: this agent takes `_session/steering`. */
export const STEERING_META = { steering: { supported: true } } as const;

/** `_meta.steering.supported` of an initialize response (STEERING_META, as a client reads it). */
export function steeringSupported(meta: unknown): boolean {
  if (typeof meta !== "object" || meta === null) return false;
  const steering: unknown = (meta as Record<string, unknown>).steering;
  return (
    typeof steering === "object" &&
    steering !== null &&
    (steering as Record<string, unknown>).supported === true
  );
}

/** `_meta.steering.idleBehavior` asking to be told, rather than have a turn started. */
export const PROMPT_REQUIRED = "promptRequired";

/**
 * What the agent did with the message: `injected` into the running turn (the turn's own
 * prompt answers once the message is answered too); nothing, because no turn runs and the
 * client asked so (`promptRequired`: send it as `session/prompt`); or a new turn with it
 * (`startedNewTurn`: its output streams as `session/update`s, no prompt response comes).
 */
export type SteeringResponse =
  | { outcome: "injected" }
  | { outcome: "promptRequired"; reason: "noRunningTurn" }
  | { outcome: "startedNewTurn" };

export interface SteeringParams {
  sessionId: string;
  prompt: ContentBlock[];
  /** Only `promptRequired` changes anything; other values start a turn when idle. */
  idleBehavior?: string;
}

// The content blocks of session/prompt, as far as the prompt conversion reads them; the
// SDK does not export its own schemas.
const resourceContents = z.union([
  z.looseObject({ uri: z.string(), text: z.string(), mimeType: z.string().nullish() }),
  z.looseObject({ uri: z.string(), blob: z.string(), mimeType: z.string().nullish() }),
]);
const contentBlock = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text"), text: z.string() }),
  z.looseObject({ type: z.literal("image"), data: z.string(), mimeType: z.string() }),
  z.looseObject({ type: z.literal("audio"), data: z.string(), mimeType: z.string() }),
  z.looseObject({ type: z.literal("resource_link"), uri: z.string(), name: z.string() }),
  z.looseObject({ type: z.literal("resource"), resource: resourceContents }),
]);

const schema = z.looseObject({
  sessionId: z.string(),
  prompt: z.array(contentBlock).min(1, "The prompt is empty."),
  _meta: z
    .looseObject({
      steering: z.looseObject({ idleBehavior: z.string().optional() }).nullish(),
    })
    .nullish(),
});

/** Validates steering params; a failure becomes invalid params (-32602) at the protocol edge. */
export const steeringParams = {
  parse: (params: unknown): SteeringParams => {
    const { sessionId, prompt, _meta } = schema.parse(params);
    const idleBehavior = _meta?.steering?.idleBehavior;
    // The schema checked every field the prompt conversion reads.
    const blocks = prompt as ContentBlock[];
    return { sessionId, prompt: blocks, ...(idleBehavior === undefined ? {} : { idleBehavior }) };
  },
};
