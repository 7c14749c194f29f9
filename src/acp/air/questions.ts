// AIR's mark on the free-text answer of a question form (AskUserQuestion as a form
// elicitation), as AIR and the published adapter write it: `customAnswer` under AIR's key, and
// the root spelling that released AIR versions read. AIR alone gets it.
import { withAirMeta } from "./extension.js";

/** The spelling released AIR versions read, at the root of the field's `_meta`. */
const LEGACY_CUSTOM_ANSWER = "_askUserQuestionCustomAnswer";

/** The `_meta` of the free-text field that answers the question field `questionId`. */
export function airCustomAnswerMeta(questionId: string): Record<string, unknown> {
  const mark = { questionId, isCustomAnswer: true };
  return withAirMeta({ [LEGACY_CUSTOM_ANSWER]: mark }, "customAnswer", mark);
}
