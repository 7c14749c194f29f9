import { answerField, otherField } from "./form.js";
import type { Question } from "./questions.js";

export interface QuestionAnswers {
  answers: Record<string, string>;
  annotations?: Record<string, { notes?: string; unanswered?: "skipped" | "dismissed" }>;
}

/** Items containing ", " or quotes are JSON-quoted so the comma-joined list stays readable. */
function joinPicks(picks: readonly string[]): string {
  return picks.map((p) => (p.includes(", ") || p.includes('"') ? JSON.stringify(p) : p)).join(", ");
}

function stringValue(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

/**
 * The accepted form as AskUserQuestion answers keyed by question text. A pick must be one
 * of the offered labels (answers are validated, not trusted). Multi-select: picks and the
 * free text comma-joined. Single-select: the pick wins and free text becomes a note; free
 * text alone is the answer.
 */
export function answersFromForm(
  questions: readonly Question[],
  content: Record<string, unknown> | null | undefined,
): QuestionAnswers {
  const answers: Record<string, string> = {};
  const annotations: NonNullable<QuestionAnswers["annotations"]> = {};
  questions.forEach((q, index) => {
    const labels = new Set(q.options.map((o) => o.label));
    const raw = content?.[answerField(index)];
    const custom = stringValue(content?.[otherField(index)]);
    if (q.multiSelect) {
      const picks = (Array.isArray(raw) ? raw : []).filter(
        (p): p is string => typeof p === "string" && labels.has(p),
      );
      const all = custom ? [...picks, custom] : picks;
      if (all.length) answers[q.question] = joinPicks(all);
      return;
    }
    const pick = typeof raw === "string" && labels.has(raw) ? raw : undefined;
    if (pick) {
      answers[q.question] = pick;
      if (custom) annotations[q.question] = { notes: custom };
    } else if (custom) {
      answers[q.question] = custom;
    }
  });
  return Object.keys(annotations).length ? { answers, annotations } : { answers };
}

/** Declined or skipped: no answers; with the CLI capability, say how it went unanswered. */
export function unansweredQuestions(
  questions: readonly Question[],
  how: "skipped" | "dismissed",
  reportUnanswered: boolean,
): QuestionAnswers {
  if (!reportUnanswered) return { answers: {} };
  return {
    answers: {},
    annotations: Object.fromEntries(questions.map((q) => [q.question, { unanswered: how }])),
  };
}
