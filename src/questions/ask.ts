import { z } from "zod";
import type { PermissionResult } from "../claude/types.js";
import { abortedResult, deniedResult } from "../permissions/effects.js";
import { answersFromForm, unansweredQuestions } from "./answers.js";
import { questionForm } from "./form.js";
import { parseQuestions } from "./questions.js";

export const NO_VALID_QUESTIONS = "AskUserQuestion called with no valid questions.";
export const COULD_NOT_ASK = "Could not present the question to the user.";

export interface QuestionClient {
  /** Sends `elicitation/create` in form mode for this tool call. */
  elicit(
    request: {
      message: string;
      requestedSchema: ReturnType<typeof questionForm>["requestedSchema"];
      toolCallId: string;
    },
    signal: AbortSignal,
  ): Promise<unknown>;
  /** Claude Code understands `annotations[q].unanswered` (ask_user_question_unanswered_v1). */
  reportsUnanswered(): boolean;
  /** The client is JetBrains AIR (form.ts marks the free-text fields for it). */
  air?: boolean;
}

const elicitationResult = z.looseObject({
  action: z.string(),
  content: z.record(z.string(), z.unknown()).nullish(),
});

/**
 * AskUserQuestion through ACP form elicitation, never as a permission dialog. The
 * answers reach Claude as the tool's input; decline and cancel are told apart.
 */
export async function askQuestions(
  client: QuestionClient,
  toolCallId: string,
  input: Record<string, unknown>,
  signal: AbortSignal,
): Promise<PermissionResult> {
  const questions = parseQuestions(input);
  if (!questions.length) return deniedResult(NO_VALID_QUESTIONS);
  let response: unknown;
  try {
    const form = questionForm(questions, { air: client.air === true });
    response = await client.elicit({ ...form, toolCallId }, signal);
  } catch {
    return signal.aborted ? abortedResult() : deniedResult(COULD_NOT_ASK);
  }
  if (signal.aborted) return abortedResult();
  const parsed = elicitationResult.safeParse(response);
  const action = parsed.success ? parsed.data.action : undefined;
  switch (action) {
    case "accept":
      return {
        behavior: "allow",
        updatedInput: { ...input, ...answersFromForm(questions, parsed.data?.content) },
      };
    case "decline":
      // The user skipped: Claude gets no answers and carries on.
      return {
        behavior: "allow",
        updatedInput: {
          ...input,
          ...unansweredQuestions(questions, "dismissed", client.reportsUnanswered()),
        },
      };
    default:
      // cancel, or an action we do not know: never treated as an answer.
      return abortedResult();
  }
}
