import { z } from "zod";

/** AskUserQuestion's input, validated: the questions we can put in a form. */
const option = z.looseObject({
  label: z.string().trim().min(1),
  description: z.string().optional().catch(undefined),
  preview: z.string().optional().catch(undefined),
});
const question = z.looseObject({
  question: z.string().trim().min(1),
  header: z.string().optional().catch(undefined),
  options: z.array(z.unknown()).min(1),
  multiSelect: z.boolean().optional().catch(undefined),
});

export interface Question {
  question: string;
  header?: string;
  multiSelect: boolean;
  options: Array<{ label: string; description?: string; preview?: string }>;
}

/** The valid questions of the input; a question without a usable option is dropped. */
export function parseQuestions(input: Record<string, unknown>): Question[] {
  const raw = Array.isArray(input.questions) ? (input.questions as unknown[]) : [];
  return raw.flatMap((entry): Question[] => {
    const parsed = question.safeParse(entry);
    if (!parsed.success) return [];
    const options = parsed.data.options.flatMap((o) => {
      const opt = option.safeParse(o);
      return opt.success ? [opt.data] : [];
    });
    if (!options.length) return [];
    return [
      {
        question: parsed.data.question,
        ...(parsed.data.header ? { header: parsed.data.header } : {}),
        multiSelect: parsed.data.multiSelect ?? false,
        options,
      },
    ];
  });
}
