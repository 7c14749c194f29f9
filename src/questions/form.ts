import type { CreateElicitationRequest, ElicitationSchema } from "@agentclientprotocol/sdk";
import { airCustomAnswerMeta } from "../acp/air/questions.js";
import { cleanMultiline, cleanSingleLine } from "../util/text.js";
import type { Question } from "./questions.js";

/** Field ids: one choice field and one free-text "Other" field per question. */
export const answerField = (index: number): string => `question_${index}`;
export const otherField = (index: number): string => `question_${index}_custom`;
export const OTHER_TITLE = "Other";
export const SEVERAL_QUESTIONS = "Please answer the following questions.";

/** Preview text rides along for clients that can show it. */
const PREVIEW_META = "_claude/askUserQuestionOption";

/**
 * The form for AskUserQuestion: single-select as a titled `oneOf` string, multi-select
 * as an array of titled `anyOf` items; nothing required, so a user can skip. `air`: the
 * client is JetBrains AIR, which reads the free-text fields' mark.
 */
export function questionForm(
  questions: readonly Question[],
  options: { air?: boolean } = {},
): {
  message: string;
  requestedSchema: ElicitationSchema;
} {
  const properties: NonNullable<ElicitationSchema["properties"]> = {};
  questions.forEach((q, index) => {
    const choices = q.options.map((o) => ({
      const: o.label,
      title: cleanSingleLine(o.label),
      ...(o.description ? { description: cleanMultiline(o.description) } : {}),
      ...(o.preview ? { _meta: { [PREVIEW_META]: { preview: o.preview } } } : {}),
    }));
    const title = cleanSingleLine(q.header ?? "") || cleanSingleLine(q.question);
    const description = questions.length > 1 ? { description: cleanMultiline(q.question) } : {};
    properties[answerField(index)] = q.multiSelect
      ? { type: "array", title, ...description, items: { anyOf: choices } }
      : { type: "string", title, ...description, oneOf: choices };
    properties[otherField(index)] = {
      type: "string",
      title: OTHER_TITLE,
      // JetBrains AIR shows it as the question's own free answer.
      ...(options.air ? { _meta: airCustomAnswerMeta(answerField(index)) } : {}),
    };
  });
  const message =
    questions.length === 1 ? cleanMultiline(questions[0]!.question) : SEVERAL_QUESTIONS;
  return { message, requestedSchema: { type: "object", properties } };
}

export type QuestionFormRequest = Extract<CreateElicitationRequest, { mode: "form" }>;
