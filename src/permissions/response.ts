import { z } from "zod";
import { isRecord } from "../tools/input.js";
import { cleanMultiline } from "../util/text.js";
import { PRESENTATION_TEXT_LIMIT } from "./presentation.js";

/**
 * The client's answer, validated before anything is applied. The standard `outcome` is
 * authoritative; unknown fields are ignored, and so is malformed `_meta` (additive data).
 */
const responseSchema = z.looseObject({
  outcome: z.discriminatedUnion("outcome", [
    z.looseObject({ outcome: z.literal("selected"), optionId: z.string() }),
    z.looseObject({ outcome: z.literal("cancelled") }),
  ]),
  _meta: z.unknown().optional(),
});

export type ClientAnswer =
  | { kind: "selected"; optionId: string; feedback?: string }
  | { kind: "cancelled" }
  | { kind: "invalid" };

/** Reject feedback (design.md): cleaned like a description; invalid feedback is dropped. */
function cleanFeedback(meta: unknown): string | undefined {
  const permission = isRecord(meta) ? meta.permission : undefined;
  const value = isRecord(permission) ? permission.feedback : undefined;
  if (typeof value !== "string") return undefined;
  const text = cleanMultiline(value).trim();
  return text && text.length <= PRESENTATION_TEXT_LIMIT ? text : undefined;
}

export function parseClientAnswer(response: unknown): ClientAnswer {
  const parsed = responseSchema.safeParse(response);
  if (!parsed.success) return { kind: "invalid" };
  const { outcome } = parsed.data;
  if (outcome.outcome === "cancelled") return { kind: "cancelled" };
  const feedback = cleanFeedback(parsed.data._meta);
  return { kind: "selected", optionId: outcome.optionId, ...(feedback ? { feedback } : {}) };
}
