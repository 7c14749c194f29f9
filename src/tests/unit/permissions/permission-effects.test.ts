/**
 * The executable contract for suggestion validation, response validation and effects:
 * permission-extension.md ("Durable SDK suggestions", "Cancellation and failures",
 * "Client requirements") and design.md ("Suggestion bounds", "Reject with feedback").
 */
import { describe, expect, it } from "vitest";
import type { PermissionUpdate } from "../../../claude/types.js";
import { abortedResult, resultOfEffect } from "../../../permissions/effects.js";
import { TOOL_USE_ABORTED, USER_REJECTED } from "../../../permissions/messages.js";
import { buildChoices } from "../../../permissions/options/index.js";
import { parseClientAnswer } from "../../../permissions/response.js";
import { snapshotSuggestions, SUGGESTION_LIMITS } from "../../../permissions/suggestions.js";
import { makeAsk } from "../../support/permissions/ask.js";
import { addDirectories, addRule, REAL_CLI, setMode } from "../../support/permissions/updates.js";

const DESTINATIONS = [
  "userSettings",
  "projectSettings",
  "localSettings",
  "session",
  "cliArg",
] as const;
const BEHAVIORS = ["allow", "deny", "ask"] as const;
const MODES = ["default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto"] as const;

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

/** `update` replaced with a raw object, to build shapes the SDK types forbid. */
function raw(value: Record<string, unknown>): unknown[] {
  return [value];
}

describe("snapshotSuggestions: validation recognizes every PermissionUpdate type", () => {
  const accepted: Array<[string, PermissionUpdate[]]> = [
    ...(["addRules", "replaceRules", "removeRules"] as const).flatMap((type) =>
      BEHAVIORS.flatMap((behavior) =>
        DESTINATIONS.map((destination): [string, PermissionUpdate[]] => [
          `${type} ${behavior} at ${destination}`,
          [
            {
              type,
              rules: [{ toolName: "Bash", ruleContent: "npm test *" }, { toolName: "WebSearch" }],
              behavior,
              destination,
            },
          ],
        ]),
      ),
    ),
    ...MODES.map((mode): [string, PermissionUpdate[]] => [`setMode ${mode}`, [setMode(mode)]]),
    ...(["addDirectories", "removeDirectories"] as const).flatMap((type) =>
      DESTINATIONS.map((destination): [string, PermissionUpdate[]] => [
        `${type} at ${destination}`,
        [{ type, directories: ["/a", "/b/c"], destination }],
      ]),
    ),
    ...Object.entries(REAL_CLI).map(([name, updates]): [string, PermissionUpdate[]] => [
      `real CLI shape ${name}`,
      updates,
    ]),
  ];
  it.each(accepted)("accepts %s, as an equal copy", (_what, suggestions) => {
    const snapshot = snapshotSuggestions(suggestions);
    expect(snapshot).toEqual(suggestions);
    expect(snapshot).not.toBe(suggestions);
  });

  it("absent suggestions are no snapshot", () => {
    expect(snapshotSuggestions(undefined)).toBeUndefined();
  });
});

describe("snapshotSuggestions: unknown update types, invalid values and empty arrays are omitted", () => {
  const rejected: Array<[string, unknown]> = [
    ["null", null],
    ["a non-array", addRule("Bash", "ls *", "session")],
    ["a string", "addRules"],
    ["an empty suggestion array", []],
    ["an unknown update type", raw({ type: "addHooks", destination: "session" })],
    [
      "a missing type",
      raw({ rules: [{ toolName: "Bash" }], behavior: "allow", destination: "session" }),
    ],
    [
      "an unknown destination",
      raw({
        type: "addRules",
        rules: [{ toolName: "Bash" }],
        behavior: "allow",
        destination: "teamSettings",
      }),
    ],
    ["a missing destination", raw({ type: "setMode", mode: "plan" })],
    [
      "an unknown behaviour",
      raw({
        type: "addRules",
        rules: [{ toolName: "Bash" }],
        behavior: "maybe",
        destination: "session",
      }),
    ],
    ["an unknown mode", raw({ type: "setMode", mode: "yolo", destination: "session" })],
    [
      "the `manual` settings alias as a mode",
      raw({ type: "setMode", mode: "manual", destination: "session" }),
    ],
    [
      "an empty rules array",
      raw({ type: "addRules", rules: [], behavior: "allow", destination: "session" }),
    ],
    [
      "an empty directories array",
      raw({ type: "addDirectories", directories: [], destination: "session" }),
    ],
    ["an empty tool name", [addRule("", undefined, "session")]],
    ["a blank tool name", [addRule("   ", undefined, "session")]],
    ["an empty rule content", [addRule("Bash", "", "session")]],
    ["a blank rule content", [addRule("Bash", " \t ", "session")]],
    ["an empty directory", [addDirectories([""])]],
    ["a blank directory", [addDirectories(["  "])]],
    ["a rule content with a newline", [addRule("Bash", "npm test\nrm -rf / *", "session")]],
    [
      "a rule content with an escape sequence",
      [addRule("Bash", "npm \u001b[8mrm -rf /\u001b[0m *", "session")],
    ],
    ["a tool name with a bidi override", [addRule("Bash\u202e", "ls *", "session")]],
    ["a directory with a NUL", [addDirectories(["/tmp/a\u0000b"])]],
    [
      "a numeric tool name",
      raw({
        type: "addRules",
        rules: [{ toolName: 7 }],
        behavior: "allow",
        destination: "session",
      }),
    ],
    [
      "a null rule",
      raw({ type: "addRules", rules: [null], behavior: "allow", destination: "session" }),
    ],
    [
      "a rule with an unknown key",
      raw({
        type: "addRules",
        rules: [{ toolName: "Bash", ruleContent: "ls *", scope: "all" }],
        behavior: "allow",
        destination: "session",
      }),
    ],
    [
      "an update with an unknown key",
      raw({ type: "setMode", mode: "plan", destination: "session", sticky: true }),
    ],
    [
      "setMode with rules instead of a mode",
      raw({ type: "setMode", rules: [{ toolName: "Bash" }], destination: "session" }),
    ],
    [
      "directories that are not strings",
      raw({ type: "addDirectories", directories: [1], destination: "session" }),
    ],
    [
      "a directories string instead of an array",
      raw({ type: "addDirectories", directories: "/tmp", destination: "session" }),
    ],
    ["a null update", [null]],
    ["an array update", [[addRule("Bash", "ls *", "session")]]],
    [
      "a Map update",
      [
        new Map([
          ["type", "setMode"],
          ["mode", "plan"],
          ["destination", "session"],
        ]),
      ],
    ],
    ["a Date update", [new Date(0)]],
  ];
  it.each(rejected)("omits %s", (_what, suggestions) => {
    expect(snapshotSuggestions(suggestions)).toBeUndefined();
  });

  it("any invalid element voids the whole array: no durable choice is offered from it", () => {
    const suggestions = [
      ...REAL_CLI.bashNpmTest,
      raw({ type: "addHooks", destination: "session" })[0],
    ];
    expect(snapshotSuggestions(suggestions)).toBeUndefined();
    const choices = buildChoices(makeAsk("Bash", { command: "npm test" }, { suggestions }));
    expect(choices.map((c) => c.option.optionId)).toEqual(["allow-once", "reject"]);
  });

  it("an invalid element anywhere (first, middle, last) voids the array", () => {
    const bad = addRule("Bash", "", "session");
    const good = addRule("Bash", "npm test *", "session");
    for (const suggestions of [
      [bad, good, good],
      [good, bad, good],
      [good, good, bad],
    ]) {
      expect(snapshotSuggestions(suggestions)).toBeUndefined();
    }
  });
});

describe("snapshotSuggestions: each bound of design.md, accepted at the bound and rejected one over", () => {
  const rules = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ toolName: "Bash", ruleContent: `cmd${i} *` }));
  const dirs = (count: number) => Array.from({ length: count }, (_, i) => `/d${i}`);
  const bounds: Array<[string, number, (n: number) => PermissionUpdate[]]> = [
    [
      "updates per array",
      SUGGESTION_LIMITS.updates,
      (n) => Array.from({ length: n }, () => setMode("acceptEdits")),
    ],
    [
      "rules per update",
      SUGGESTION_LIMITS.entriesPerUpdate,
      (n) => [{ type: "addRules", rules: rules(n), behavior: "allow", destination: "session" }],
    ],
    [
      "directories per update",
      SUGGESTION_LIMITS.entriesPerUpdate,
      (n) => [addDirectories(dirs(n))],
    ],
    [
      "removeDirectories per update",
      SUGGESTION_LIMITS.entriesPerUpdate,
      (n) => [{ type: "removeDirectories", directories: dirs(n), destination: "session" }],
    ],
    [
      "tool name characters",
      SUGGESTION_LIMITS.toolName,
      (n) => [addRule("T".repeat(n), undefined, "session")],
    ],
    [
      "rule content characters",
      SUGGESTION_LIMITS.ruleContent,
      (n) => [addRule("Bash", "c".repeat(n), "session")],
    ],
    [
      "directory characters",
      SUGGESTION_LIMITS.directory,
      (n) => [addDirectories([`/${"d".repeat(n - 1)}`])],
    ],
  ];

  it("the bounds are design.md's: 100 updates, 100 rules or directories, 512, 10,000, 4,096", () => {
    expect(SUGGESTION_LIMITS).toEqual({
      updates: 100,
      entriesPerUpdate: 100,
      toolName: 512,
      ruleContent: 10_000,
      directory: 4_096,
    });
  });
  it.each(bounds)("%s: at the bound (%i) accepted", (_what, bound, make) => {
    expect(snapshotSuggestions(make(bound))).toEqual(make(bound));
  });
  it.each(bounds)("%s: one over the bound (%i + 1) rejected", (_what, bound, make) => {
    expect(snapshotSuggestions(make(bound + 1))).toBeUndefined();
  });
});

describe("snapshotSuggestions: non-cloneable data is omitted", () => {
  const withField = (key: string, value: unknown) => [
    { ...addRule("Bash", "ls *", "session"), [key]: value },
  ];
  const throwingGetter = Object.defineProperty({ type: "setMode", mode: "plan" }, "destination", {
    enumerable: true,
    get() {
      throw new Error("boom");
    },
  });
  const cases: Array<[string, unknown]> = [
    ["a function value", withField("rules", () => [{ toolName: "Bash" }])],
    ["a function element", [() => addRule("Bash", "ls *", "session")]],
    ["a symbol value", withField("destination", Symbol("session"))],
    ["a symbol element", [Symbol("update")]],
    ["a getter that throws", [throwingGetter]],
    ["a Proxy", [new Proxy(addRule("Bash", "ls *", "session"), {})]],
    ["a Proxy array", new Proxy([addRule("Bash", "ls *", "session")], {})],
    ["a WeakMap value", withField("extra", new WeakMap())],
    ["a Promise element", [Promise.resolve(addRule("Bash", "ls *", "session"))]],
    [
      "a BigInt where a string is expected",
      raw({ type: "addDirectories", directories: [10n], destination: "session" }),
    ],
  ];
  it.each(cases)("omits an array holding %s, without throwing", (_what, suggestions) => {
    expect(() => snapshotSuggestions(suggestions)).not.toThrow();
    expect(snapshotSuggestions(suggestions)).toBeUndefined();
  });

  it("an accessor is read once, so what is labelled is what is applied", () => {
    let reads = 0;
    const rule = {
      toolName: "Bash",
      get ruleContent() {
        reads += 1;
        return reads === 1 ? "npm test *" : "rm -rf *";
      },
    };
    const suggestions = [
      { type: "addRules", rules: [rule], behavior: "allow", destination: "localSettings" },
    ];
    const ask = makeAsk("Bash", { command: "npm test" }, { suggestions });
    const durable = buildChoices(ask).find((c) => c.effect.type === "allowWithUpdates");
    expect(durable?.option.name).toBe(
      "Yes, and don't ask again for npm test commands in this project",
    );
    expect(resultOfEffect(durable!.effect, {})).toMatchObject({
      updatedPermissions: [{ rules: [{ toolName: "Bash", ruleContent: "npm test *" }] }],
    });
  });
});

describe("snapshotSuggestions: the snapshot is deep-frozen and independent of the SDK's array", () => {
  it("is deep-frozen", () => {
    const snapshot = snapshotSuggestions(REAL_CLI.bashMkdirOutside);
    expect(snapshot).toBeDefined();
    expect(isDeepFrozen(snapshot)).toBe(true);
  });

  it("later mutation of the SDK's array does not reach the snapshot", () => {
    const sdk: PermissionUpdate[] = structuredClone(REAL_CLI.writeOutside);
    const snapshot = snapshotSuggestions(sdk);
    sdk.push(addRule("Bash", "rm -rf *", "userSettings"));
    const [first, second] = sdk;
    if (first?.type === "setMode") first.mode = "bypassPermissions";
    if (second?.type === "addDirectories") second.directories.push("/");
    expect(snapshot).toEqual(REAL_CLI.writeOutside);
  });

  it("label and effect cannot diverge after a delayed answer", () => {
    const sdk: PermissionUpdate[] = structuredClone(REAL_CLI.bashNpmTest);
    const ask = makeAsk("Bash", { command: "npm test" }, { suggestions: sdk });
    const durable = buildChoices(ask).find((c) => c.effect.type === "allowWithUpdates");
    expect(durable?.option.name).toBe(
      "Yes, and don't ask again for npm test commands in this project",
    );
    // The SDK's array changes while the user is looking at the dialog.
    const [update] = sdk;
    if (update?.type === "addRules") {
      update.rules[0] = { toolName: "Bash", ruleContent: "rm -rf *" };
      update.destination = "userSettings";
    }
    sdk.push(setMode("bypassPermissions"));
    expect(resultOfEffect(durable!.effect, { command: "npm test" })).toMatchObject({
      updatedPermissions: REAL_CLI.bashNpmTest,
    });
  });
});

describe("resultOfEffect: the selected option maps to a Claude SDK PermissionResult", () => {
  const input = { command: "npm test" };

  it("allow-once: `behavior: allow`, the input, `user_temporary`, no permission change", () => {
    expect(resultOfEffect({ type: "allowOnce" }, input)).toEqual({
      behavior: "allow",
      updatedInput: input,
      decisionClassification: "user_temporary",
    });
  });

  it("durable: exactly the snapshot as `updatedPermissions`, `user_permanent`", () => {
    const snapshot = snapshotSuggestions(REAL_CLI.bashMkdirOutside)!;
    const result = resultOfEffect({ type: "allowWithUpdates", updates: snapshot }, input);
    expect(result).toEqual({
      behavior: "allow",
      updatedInput: input,
      updatedPermissions: REAL_CLI.bashMkdirOutside,
      decisionClassification: "user_permanent",
    });
  });

  it("durable: the result is a copy, so the snapshot stays intact for another answer", () => {
    const snapshot = snapshotSuggestions(REAL_CLI.bashNpmTest)!;
    const result = resultOfEffect({ type: "allowWithUpdates", updates: snapshot }, input);
    if (result.behavior === "allow") result.updatedPermissions?.push(setMode("bypassPermissions"));
    expect(snapshot).toEqual(REAL_CLI.bashNpmTest);
  });

  it.each(["auto", "bypassPermissions", "acceptEdits", "default"] as const)(
    "exit plan into %s: allow and set the session mode",
    (mode) => {
      expect(resultOfEffect({ type: "exitPlan", mode, clearContext: false }, {})).toEqual({
        behavior: "allow",
        updatedInput: {},
        updatedPermissions: [{ type: "setMode", mode, destination: "session" }],
        decisionClassification: "user_temporary",
      });
    },
  );

  it("reject: `deny`, `user_reject`, the default refusal message", () => {
    expect(resultOfEffect({ type: "reject" }, input)).toEqual({
      behavior: "deny",
      message: USER_REJECTED,
      decisionClassification: "user_reject",
    });
    expect(USER_REJECTED).toBe(
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
    );
  });

  it("reject with feedback: the refusal carries the user's text to Claude", () => {
    const result = resultOfEffect({ type: "reject" }, input, "Use pnpm instead.\nAnd skip e2e.");
    expect(result).toMatchObject({ behavior: "deny", decisionClassification: "user_reject" });
    const message = result.behavior === "deny" ? result.message : "";
    expect(
      message.startsWith(
        "The user doesn't want to proceed with this tool use. The tool use was rejected",
      ),
    ).toBe(true);
    expect(message.endsWith("\nUse pnpm instead.\nAnd skip e2e.")).toBe(true);
  });

  it("a selected reject is not an abort: no interrupt", () => {
    expect(resultOfEffect({ type: "reject" }, input)).not.toHaveProperty("interrupt");
  });

  it("abortedResult is `Tool use aborted`", () => {
    expect(TOOL_USE_ABORTED).toBe("Tool use aborted");
    expect(abortedResult()).toMatchObject({ behavior: "deny", message: "Tool use aborted" });
  });
});

describe("parseClientAnswer: the client's answer is validated before anything is applied", () => {
  const selected = (optionId: string, meta?: unknown) => ({
    outcome: { outcome: "selected", optionId },
    ...(meta === undefined ? {} : { _meta: meta }),
  });

  it("a selected outcome carries its option id unchanged", () => {
    expect(parseClientAnswer(selected("allow-with-updates"))).toEqual({
      kind: "selected",
      optionId: "allow-with-updates",
    });
  });

  it("a cancelled outcome is a cancellation, not a reject", () => {
    expect(parseClientAnswer({ outcome: { outcome: "cancelled" } })).toEqual({ kind: "cancelled" });
  });

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a string", "allow-once"],
    ["an empty object", {}],
    ["an outcome string", { outcome: "selected" }],
    ["a selected outcome without an option id", { outcome: { outcome: "selected" } }],
    ["a numeric option id", { outcome: { outcome: "selected", optionId: 1 } }],
    ["an unknown outcome", { outcome: { outcome: "timeout" } }],
    ["an array", [selected("allow-once")]],
  ])("%s is invalid", (_what, response) => {
    expect(parseClientAnswer(response)).toEqual({ kind: "invalid" });
  });

  it("unknown fields and unknown `_meta` are ignored", () => {
    expect(
      parseClientAnswer({
        ...selected("allow-once", { zed: { x: 1 }, permission: { future: true } }),
        extra: 1,
      }),
    ).toEqual({ kind: "selected", optionId: "allow-once" });
    expect(
      parseClientAnswer({ outcome: { outcome: "cancelled", why: "closed" }, _meta: { a: 1 } }),
    ).toEqual({
      kind: "cancelled",
    });
  });

  it.each([
    ["a string `_meta.permission`", { permission: "Use pnpm" }],
    ["a numeric `_meta.permission`", { permission: 1 }],
    ["an array `_meta`", ["x"]],
    ["a null `_meta`", null],
  ])("malformed extension data (%s) is ignored, the selection stands", (_what, meta) => {
    expect(parseClientAnswer(selected("reject", meta))).toEqual({
      kind: "selected",
      optionId: "reject",
    });
  });

  it("feedback is taken from `_meta.permission.feedback` and cleaned like a description", () => {
    expect(
      parseClientAnswer(
        selected("reject", {
          permission: { feedback: "  \u001b[31mUse pnpm\u001b[0m\r\ninstead\u202e  " },
        }),
      ),
    ).toEqual({ kind: "selected", optionId: "reject", feedback: "Use pnpm\ninstead" });
  });

  it("feedback of exactly 4,000 characters is kept", () => {
    const feedback = "f".repeat(4_000);
    expect(parseClientAnswer(selected("reject", { permission: { feedback } }))).toEqual({
      kind: "selected",
      optionId: "reject",
      feedback,
    });
  });

  it.each([
    ["blank", "  \n "],
    ["only escapes", "\u001b[2J"],
    ["not a string", { text: "x" }],
    ["over 4,000 characters", "f".repeat(4_001)],
  ])(
    "invalid feedback (%s) is dropped, never truncated; the selection stands",
    (_what, feedback) => {
      expect(parseClientAnswer(selected("reject", { permission: { feedback } }))).toEqual({
        kind: "selected",
        optionId: "reject",
      });
    },
  );
});
