// What the terminal client answers: policies by standard kind, exact option ids, feedback,
// and forms.
import type { PermissionOption } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { permissionResponse } from "../../client/answers.js";
import { firstChoiceContent, formFields } from "../../client/form.js";
import { choosePermissionOption, type AnswerPolicy } from "../../client/policy.js";
import { questionForm } from "../../questions/form.js";

const BASH: PermissionOption[] = [
  { optionId: "allow-once", name: "Yes", kind: "allow_once" },
  {
    optionId: "allow-with-updates",
    name: "Yes, and don't ask again for npm test commands",
    kind: "allow_always",
  },
  { optionId: "reject", name: "No", kind: "reject_once" },
];
const EXIT_PLAN: PermissionOption[] = [
  { optionId: "exit-plan-default", name: "Yes, manually approve edits", kind: "allow_once" },
  {
    optionId: "exit-plan-clear-auto",
    name: "Yes, clear context and use auto mode",
    kind: "allow_always",
  },
  { optionId: "exit-plan-auto", name: "Yes, and use auto mode", kind: "allow_always" },
  { optionId: "reject", name: "No, keep planning", kind: "reject_once" },
];
const ONLY_ALWAYS: PermissionOption[] = [{ optionId: "x", name: "Always", kind: "allow_always" }];

describe("answer policies pick by the standard kind", () => {
  const table: Array<[AnswerPolicy, PermissionOption[], string | undefined]> = [
    ["allow-once", BASH, "allow-once"],
    ["allow-always", BASH, "allow-with-updates"],
    ["reject", BASH, "reject"],
    ["first", BASH, "allow-once"],
    ["cancel", BASH, undefined],
    ["allow-once", EXIT_PLAN, "exit-plan-default"],
    ["allow-always", EXIT_PLAN, "exit-plan-clear-auto"],
    ["reject", EXIT_PLAN, "reject"],
    ["allow-once", ONLY_ALWAYS, "x"],
    ["reject", ONLY_ALWAYS, undefined],
  ];
  for (const [policy, options, expected] of table) {
    it(`${policy} over [${options.map((o) => o.optionId).join(", ")}] selects ${expected ?? "nothing (cancelled)"}`, () => {
      expect(choosePermissionOption(options, policy)?.optionId).toBe(expected);
    });
  }
});

describe("permission responses", () => {
  it("return the option id exactly as offered, whatever it looks like", () => {
    const odd = { optionId: "  Opt ✓ #1\t", name: "Sure", kind: "allow_once" as const };
    expect(permissionResponse({ outcome: "selected", option: odd })).toEqual({
      outcome: { outcome: "selected", optionId: "  Opt ✓ #1\t" },
    });
  });

  it("carry reject feedback under _meta.permission.feedback, only for a reject option with text", () => {
    const reject = BASH[2]!;
    expect(
      permissionResponse({ outcome: "selected", option: reject, feedback: " use yarn " }),
    ).toEqual({
      outcome: { outcome: "selected", optionId: "reject" },
      _meta: { permission: { feedback: "use yarn" } },
    });
    expect(
      permissionResponse({ outcome: "selected", option: reject, feedback: "  " }),
    ).not.toHaveProperty("_meta");
    expect(
      permissionResponse({ outcome: "selected", option: BASH[0]!, feedback: "x" }),
    ).not.toHaveProperty("_meta");
  });

  it("are { outcome: cancelled } when cancelled", () => {
    expect(permissionResponse({ outcome: "cancelled", reason: "Esc" })).toEqual({
      outcome: { outcome: "cancelled" },
    });
  });
});

describe("forms", () => {
  it("reads the agent's AskUserQuestion form: a titled single-select and its optional Other field", () => {
    const { requestedSchema } = questionForm([
      {
        question: "Which one?",
        header: "Pick",
        multiSelect: false,
        options: [
          { label: "A", description: "first" },
          { label: "B", description: "second" },
        ],
      },
    ]);
    const { fields, unknown } = formFields(requestedSchema);
    expect(unknown).toEqual([]);
    expect(fields).toEqual([
      {
        key: "question_0",
        title: "Pick",
        required: false,
        kind: "choice",
        choices: [
          { value: "A", title: "A", description: "first" },
          { value: "B", title: "B", description: "second" },
        ],
      },
      { key: "question_0_custom", title: "Other", required: false, kind: "text" },
    ]);
    expect(firstChoiceContent(fields)).toEqual({ question_0: "A" });
  });

  it("reads multi-select, enum, number and boolean fields, and answers with first choices and defaults", () => {
    const { fields } = formFields({
      type: "object",
      properties: {
        tags: {
          type: "array",
          items: {
            anyOf: [
              { const: "x", title: "X" },
              { const: "y", title: "Y" },
            ],
          },
        },
        size: { type: "string", enum: ["s", "m"] },
        count: { type: "integer", default: 3 },
        ok: { type: "boolean" },
        name: { type: "string" },
      },
      required: ["ok", "name"],
    });
    expect(fields.map((f) => [f.key, f.kind])).toEqual([
      ["tags", "multi"],
      ["size", "choice"],
      ["count", "number"],
      ["ok", "boolean"],
      ["name", "text"],
    ]);
    expect(firstChoiceContent(fields)).toEqual({
      tags: ["x"],
      size: "s",
      count: 3,
      ok: false,
      name: "",
    });
  });

  it("reports required fields of a type it cannot show", () => {
    const { unknown } = formFields({
      type: "object",
      properties: { a: { type: "_custom" }, b: { type: "_custom" } },
      required: ["a"],
    });
    expect(unknown).toEqual(["a"]);
  });
});
