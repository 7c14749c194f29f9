import { cleanSingleLine } from "../../util/text.js";
import { optionalText } from "../content.js";
import { recordsField, stringField } from "../input.js";
import type { ToolFamily, ToolRenderer } from "../types.js";

/** AskUserQuestion: a single question is the title; each question is shown as text. */
const render: ToolRenderer = (input) => {
  const questions = recordsField(input, "questions").flatMap(
    (question) => stringField(question, "question") ?? [],
  );
  const content = questions.flatMap((question) => optionalText(question));
  const only = content.length === 1 && questions.length === 1 ? questions[0] : undefined;
  return {
    kind: "other",
    title: only ? cleanSingleLine(only) : "Asking for your input",
    content,
    locations: [],
  };
};

export const questionFamily: ToolFamily = { render };
