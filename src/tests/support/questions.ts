/** AskUserQuestion's input with one single-select question, as Claude Code sends it. */
export const LIBRARY_QUESTION = {
  questions: [
    {
      question: "Which library?",
      header: "Library",
      multiSelect: false,
      options: [
        { label: "date-fns", description: "Small" },
        { label: "luxon", description: "Rich" },
      ],
    },
  ],
};
