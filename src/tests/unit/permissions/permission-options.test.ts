/**
 * The executable contract for tool-specific option construction:
 * permission-extension.md ("Standard option ids", "Durable SDK suggestions",
 * "Tool-specific behavior") and design.md ("What the real CLI sends", "Labels").
 */
import type { PermissionOptionKind } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { PermissionUpdate } from "../../../claude/types.js";
import {
  allowOnce,
  allowWithUpdates,
  choice,
  finalizeChoices,
  persistentChoicesAllowed,
  reject,
  type PermissionChoice,
} from "../../../permissions/choices.js";
import { OPTION_IDS } from "../../../permissions/option-ids.js";
import { buildChoices } from "../../../permissions/options/index.js";
import type { ToolInput } from "../../../tools/index.js";
import {
  always,
  CWD,
  HOME,
  makeAsk,
  NO,
  optionsFor,
  view,
  YES,
  type AskSpec,
  type OptionView,
} from "../../support/permissions/ask.js";
import { addDirectories, addRule, REAL_CLI, setMode } from "../../support/permissions/updates.js";

/** The effect of a durable option: the exact validated SDK bundle, or a rule the adapter generates. */
type Effect = "snapshot" | PermissionUpdate[];

interface Row {
  rule: string;
  tool: string;
  input?: ToolInput;
  spec?: AskSpec;
  options: OptionView[];
  /** Effects of the durable (allowWithUpdates) options, in option order. */
  effects?: Effect[];
}

function local(toolName: string, ruleContent?: string): PermissionUpdate[] {
  return [addRule(toolName, ruleContent, "localSettings")];
}

function checkRows(rows: readonly Row[]): void {
  it.each(rows)("$rule", (row) => {
    const { ask, choices, options } = optionsFor(row.tool, row.input, row.spec);
    expect(options).toEqual(row.options);
    const durable = choices.flatMap((c) =>
      c.effect.type === "allowWithUpdates" ? [c.effect] : [],
    );
    expect(durable).toHaveLength(row.effects?.length ?? 0);
    durable.forEach((effect, index) => {
      const expected = row.effects?.[index];
      if (expected === "snapshot") {
        // Exactly the snapshot the label was written from, not a re-built copy.
        expect(ask.suggestions).toBeDefined();
        expect(effect.updates).toBe(ask.suggestions);
      } else {
        expect(effect.updates).toEqual(expected);
      }
    });
  });
}

/** A shell row with one durable option whose effect is the SDK bundle. */
function shellRow(
  rule: string,
  suggestions: PermissionUpdate[],
  label: string | undefined,
  { tool = "Bash", command = "npm test" }: { tool?: string; command?: string } = {},
): Row {
  return {
    rule,
    tool,
    input: { command },
    spec: { suggestions },
    options: label ? [YES, always(label), NO] : [YES, NO],
    effects: label ? ["snapshot"] : [],
  };
}

describe("Standard option ids", () => {
  it("the option ids are exactly the contract's table", () => {
    expect(Object.values(OPTION_IDS).sort()).toEqual(
      [
        "allow-once",
        "allow-with-updates",
        "allow-skill-exact",
        "allow-skill-prefix",
        "exit-plan-auto",
        "exit-plan-bypass",
        "exit-plan-accept-edits",
        "exit-plan-default",
        "exit-plan-clear-auto",
        "exit-plan-clear-bypass",
        "exit-plan-clear-accept-edits",
        "reject",
      ].sort(),
    );
  });

  // Every id, produced by a real builder, with its kind and meaning.
  const planSpec: AskSpec = { plan: { planText: "1. Do it", contextUsedPercent: 10 } };
  const idRows: Array<{
    id: string;
    kind: PermissionOptionKind;
    tool: string;
    spec?: AskSpec;
    input?: ToolInput;
  }> = [
    { id: "allow-once", kind: "allow_once", tool: "Bash", input: { command: "ls" } },
    { id: "allow-with-updates", kind: "allow_always", tool: "WebSearch" },
    { id: "allow-skill-exact", kind: "allow_always", tool: "Skill", input: { skill: "review x" } },
    { id: "allow-skill-prefix", kind: "allow_always", tool: "Skill", input: { skill: "review x" } },
    ...(
      [
        ["exit-plan-auto", "exit-plan-clear-auto", ["auto"]],
        ["exit-plan-bypass", "exit-plan-clear-bypass", ["bypassPermissions"]],
        ["exit-plan-accept-edits", "exit-plan-clear-accept-edits", ["acceptEdits"]],
      ] as const
    ).flatMap(([keep, clear, modes]) =>
      [keep, clear].map((id) => ({
        id,
        kind: "allow_always" as const,
        tool: "ExitPlanMode",
        spec: { plan: { ...planSpec.plan, availableModes: new Set<string>(modes) } },
      })),
    ),
    { id: "exit-plan-default", kind: "allow_once", tool: "ExitPlanMode", spec: planSpec },
    { id: "reject", kind: "reject_once", tool: "Bash", input: { command: "ls" } },
  ];
  it.each(idRows)("`$id` is offered with kind $kind", ({ id, kind, tool, spec, input }) => {
    const { options } = optionsFor(tool, input, spec);
    expect(options.find((o) => o.id === id)?.kind).toBe(kind);
  });

  it("every built option uses a standard id", () => {
    const ids = new Set<string>(Object.values(OPTION_IDS));
    for (const tool of [
      "Bash",
      "Read",
      "Edit",
      "WebFetch",
      "Skill",
      "ExitPlanMode",
      "mcp__s__t",
      "Monitor",
    ]) {
      const { options } = optionsFor(tool, {
        url: "https://a.b",
        skill: "a b",
        file_path: "/project/a",
      });
      options.forEach((o) => expect(ids.has(o.id)).toBe(true));
    }
  });
});

describe("Stable grouping: allow_once, allow_always, then reject kinds; builder order within a kind", () => {
  const snapshot = [addRule("WebSearch", undefined, "localSettings")];
  const a = allowWithUpdates("A", snapshot);
  const b = choice(OPTION_IDS.allowSkillExact, "B", "allow_always", {
    type: "allowWithUpdates",
    updates: snapshot,
  });
  const once = allowOnce();
  const rejectOnce = reject();
  const rejectAlways = choice(OPTION_IDS.reject, "R", "reject_always", { type: "reject" });

  it("reorders kinds into allow_once, allow_always, reject", () => {
    const ordered = finalizeChoices([rejectOnce, a, once, b], { persistentChoicesAllowed: true });
    expect(ordered.map((c) => c.option.name)).toEqual(["Yes", "A", "B", "No"]);
  });

  it("keeps builder order between options of the same group (reject_once and reject_always are one group)", () => {
    const ordered = finalizeChoices([rejectAlways, b, a, rejectOnce, once], {
      persistentChoicesAllowed: true,
    });
    expect(ordered.map((c) => c.option.name)).toEqual(["Yes", "B", "A", "R", "No"]);
  });

  it("ExitPlanMode: builder order clear, keep, manual, reject becomes manual, clear, keep, reject", () => {
    const { options } = optionsFor(
      "ExitPlanMode",
      {},
      {
        plan: { availableModes: new Set(["auto"]), planText: "plan" },
      },
    );
    expect(options.map((o) => o.id)).toEqual([
      "exit-plan-default",
      "exit-plan-clear-auto",
      "exit-plan-auto",
      "reject",
    ]);
  });

  it("Skill: the exact option precedes the prefix option", () => {
    const { options } = optionsFor("Skill", { skill: "deploy prod" });
    expect(options.map((o) => o.id)).toEqual([
      "allow-once",
      "allow-skill-exact",
      "allow-skill-prefix",
      "reject",
    ]);
  });
});

describe("Bash / PowerShell: one-time allow; exact representable SDK bundle with its complete effect in the label; reject", () => {
  const long = "a".repeat(60);
  checkRows([
    shellRow(
      'real CLI `npm test`: `Bash(npm test *)` in localSettings reads "Yes, and don\'t ask again for npm test commands in this project"',
      REAL_CLI.bashNpmTest,
      "Yes, and don't ask again for npm test commands in this project",
    ),
    shellRow(
      "the older `npm test:*` rule content renders the same prefix `npm test`",
      REAL_CLI.bashNpmTestOlder,
      "Yes, and don't ask again for npm test commands in this project",
    ),
    shellRow(
      "real CLI `git status && npm test`: the one rule for the part that needs approval",
      REAL_CLI.bashCompound,
      "Yes, and don't ask again for npm test commands in this project",
      { command: "git status && npm test" },
    ),
    shellRow(
      "real CLI `mkdir -p /outside/dir` (rule + addDirectories + setMode acceptEdits) is not representable: one-time allow and reject only",
      REAL_CLI.bashMkdirOutside,
      undefined,
      { command: "mkdir -p /outside/dir" },
    ),
    shellRow(
      "an exact command rule is stated as its command",
      [addRule("Bash", "mkdir -p /outside/dir", "localSettings")],
      "Yes, and don't ask again for mkdir -p /outside/dir commands in this project",
      { command: "mkdir -p /outside/dir" },
    ),
    shellRow(
      "an exact command rule for a command that is not part of the approved one is not offered",
      [addRule("Bash", "rm -rf /tmp/x", "localSettings")],
      undefined,
      { command: "ls" },
    ),
    shellRow(
      "a rule with `*` inside is a pattern a label does not spell out: not offered",
      [addRule("Bash", "npm * --fix", "localSettings")],
      undefined,
      { command: "npm run lint --fix" },
    ),
    shellRow(
      "a session command rule says it lasts during this session",
      [addRule("Bash", "npm test *", "session")],
      "Yes, and don't ask again for npm test commands during this session",
    ),
    shellRow(
      "two commands: `<a> and <b> commands`",
      [
        {
          type: "addRules",
          rules: [
            { toolName: "Bash", ruleContent: "npm test *" },
            { toolName: "Bash", ruleContent: "git status:*" },
          ],
          behavior: "allow",
          destination: "localSettings",
        },
      ],
      "Yes, and don't ask again for npm test and git status commands in this project",
      { command: "npm test && git status" },
    ),
    shellRow(
      "three commands: `<a>, <b>, and <c> commands` (duplicates stated once)",
      [
        addRule("Bash", "npm test *", "localSettings"),
        addRule("Bash", "npm run lint *", "localSettings"),
        addRule("Bash", "npm test:*", "localSettings"),
        addRule("Bash", "git status *", "localSettings"),
      ],
      "Yes, and don't ask again for npm test, npm run lint, and git status commands in this project",
      { command: "npm test; npm run lint | cat; git status" },
    ),
    shellRow(
      "a long command list is named whole, never `similar commands`",
      [
        addRule("Bash", `${long} *`, "localSettings"),
        addRule("Bash", "npm test *", "localSettings"),
      ],
      `Yes, and don't ask again for ${long} and npm test commands in this project`,
      { command: `${long} && npm test` },
    ),
    shellRow(
      "a label over 4,000 characters is not offered: it is never cut",
      Array.from({ length: 80 }, (_, i) => addRule("Bash", `${long}${i} *`, "localSettings")),
      undefined,
      { command: Array.from({ length: 80 }, (_, i) => `${long}${i}`).join(" && ") },
    ),
    shellRow(
      "real CLI `npm run build && node -e …`: a prefix shorter than the part it approves is said to be broader",
      [
        addRule("Bash", "npm run *", "localSettings"),
        addRule("Bash", "node -e 'console.log(1)'", "localSettings"),
      ],
      "Yes, and don't ask again for node -e 'console.log(1)' commands and any npm run command (broader than this command) in this project",
      { command: "npm run build && node -e 'console.log(1)'" },
    ),
    shellRow(
      "real CLI five commands: whole parts are named as commands, the broader prefixes as `any … command (broader than this command)`",
      ["npm test *", "make lint *", "cargo build *", "go vet *", "yarn lint *"].map((rule) =>
        addRule("Bash", rule, "localSettings"),
      ),
      "Yes, and don't ask again for npm test and make lint commands and any cargo build, go vet, or yarn lint command (broader than this command) in this project",
      {
        command:
          "npm test && make lint && cargo build --release && go vet ./... && yarn lint --fix",
      },
    ),
    shellRow(
      "a prefix with arguments after it in the command is broader (`npm test *` for `npm test --watch`)",
      REAL_CLI.bashNpmTest,
      "Yes, and don't ask again for any npm test command (broader than this command) in this project",
      { command: "npm test --watch" },
    ),
    shellRow(
      "a prefix rule for a command that is not part of the approved one is broader",
      [addRule("Bash", "git push *", "localSettings")],
      "Yes, and don't ask again for any git push command (broader than this command) in this project",
      { command: "npm test" },
    ),
    shellRow(
      "spacing does not make a part differ: `npm  test` is the part `npm test`",
      REAL_CLI.bashNpmTest,
      "Yes, and don't ask again for npm test commands in this project",
      { command: "npm  test\n" },
    ),
    shellRow(
      "a read-path rule in local settings: `Yes, allow reading from <dir>/ in this project`",
      [addRule("Read", "//etc/**", "localSettings")],
      "Yes, allow reading from /etc/ in this project",
    ),
    shellRow(
      "a read-path rule in the session: `Yes, allow reading from <dir>/ during this session`",
      [addRule("Read", "//etc/**", "session")],
      "Yes, allow reading from /etc/ during this session",
    ),
    shellRow(
      "directories in local settings: `Yes, and always allow access to <dir>/ in this project`",
      [addDirectories(["/outside/dir"], "localSettings")],
      "Yes, and always allow access to /outside/dir/ in this project",
    ),
    shellRow(
      "directories in the session: `Yes, and allow access to <dir>/ during this session`",
      [addDirectories(["/outside/dir", "/data/"], "session")],
      "Yes, and allow access to /outside/dir/ and /data/ during this session",
    ),
    shellRow(
      "a representable combination states every part of the bundle",
      [
        addRule("Bash", "npm test *", "localSettings"),
        addRule("Read", "//etc/**", "localSettings"),
        addDirectories(["/data"], "session"),
      ],
      "Yes, and don't ask again for npm test commands in this project, allow reading from /etc/ in this project, and allow access to /data/ during this session",
    ),
    shellRow(
      "mixed scopes are each stated with where they live",
      [addRule("Bash", "npm test *", "localSettings"), addRule("Bash", "ls *", "session")],
      "Yes, and don't ask again for npm test commands in this project and don't ask again for ls commands during this session",
      { command: "npm test && ls" },
    ),
    shellRow(
      "PowerShell states its own command rules",
      [addRule("PowerShell", "Get-ChildItem *", "localSettings")],
      "Yes, and don't ask again for Get-ChildItem commands in this project",
      { tool: "PowerShell", command: "Get-ChildItem" },
    ),
    shellRow("PowerShell does not label a Bash rule", REAL_CLI.bashNpmTest, undefined, {
      tool: "PowerShell",
    }),
    ...(
      [
        [
          "a setMode update",
          [addRule("Bash", "npm test *", "localSettings"), setMode("acceptEdits")],
        ],
        ["a lone setMode update", [setMode("acceptEdits")]],
        [
          "a removeRules update",
          [
            {
              type: "removeRules",
              rules: [{ toolName: "Bash", ruleContent: "rm *" }],
              behavior: "deny",
              destination: "localSettings",
            },
          ],
        ],
        [
          "a replaceRules update",
          [
            {
              type: "replaceRules",
              rules: [{ toolName: "Bash", ruleContent: "npm test *" }],
              behavior: "allow",
              destination: "localSettings",
            },
          ],
        ],
        [
          "a deny rule",
          [
            addRule("Bash", "npm test *", "localSettings"),
            addRule("Bash", "rm *", "localSettings", "deny"),
          ],
        ],
        ["an ask rule", [addRule("Bash", "npm test *", "localSettings", "ask")]],
        [
          "a removeDirectories update",
          [{ type: "removeDirectories", directories: ["/data"], destination: "session" }],
        ],
        ["a projectSettings destination", [addRule("Bash", "npm test *", "projectSettings")]],
        ["a userSettings destination", [addRule("Bash", "npm test *", "userSettings")]],
        ["a cliArg destination", [addRule("Bash", "npm test *", "cliArg")]],
        ["a whole-tool Bash rule (every command)", [addRule("Bash", undefined, "localSettings")]],
        [
          "a rule for another tool",
          [
            addRule("Bash", "npm test *", "localSettings"),
            addRule("WebFetch", "domain:x.com", "localSettings"),
          ],
        ],
        ["a relative directory", [addDirectories(["outside"], "session")]],
        [
          "a read rule that is not an absolute `//dir/**`",
          [addRule("Read", "/src/**", "localSettings")],
        ],
        [
          "a read glob narrower than a directory",
          [addRule("Read", "//etc/*.conf", "localSettings")],
        ],
        ["a command rule with an empty prefix (` *`)", [addRule("Bash", " *", "localSettings")]],
        ["a command rule with an empty prefix (`:*`)", [addRule("Bash", ":*", "localSettings")]],
      ] satisfies Array<[string, PermissionUpdate[]]>
    ).map(([what, suggestions]) =>
      shellRow(
        `never label part of a mixed bundle: ${what} makes the bundle not representable`,
        suggestions,
        undefined,
      ),
    ),
    shellRow("no suggestions: one-time allow and reject", [], undefined),
  ]);
});

describe("Read / Glob / Grep: one-time allow; matching session-scoped read grant; reject", () => {
  const readRow = (
    rule: string,
    tool: string,
    input: ToolInput,
    suggestions: PermissionUpdate[],
    label: string | undefined,
  ): Row => ({
    rule,
    tool,
    input,
    spec: { suggestions },
    options: label ? [YES, always(label), NO] : [YES, NO],
    effects: label ? ["snapshot"] : [],
  });
  checkRows([
    readRow(
      "real CLI `Read /etc/hostname`: session `Read(//etc/**)` reads `Yes, allow reading from /etc/ during this session`",
      "Read",
      { file_path: "/etc/hostname" },
      REAL_CLI.readOutside,
      "Yes, allow reading from /etc/ during this session",
    ),
    readRow(
      "a session addDirectories covering the path: `Yes, and allow access to <dir>/ during this session`",
      "Read",
      { file_path: "/srv/data/a.csv" },
      [addDirectories(["/srv"])],
      "Yes, and allow access to /srv/ during this session",
    ),
    readRow(
      "a session read rule and directories together state both",
      "Read",
      { file_path: "/etc/hostname" },
      [addRule("Read", "//etc/**", "session"), addDirectories(["/srv"])],
      "Yes, and allow reading from /etc/ during this session and allow access to /srv/ during this session",
    ),
    readRow(
      "Glob: its `path` is the path that must be covered",
      "Glob",
      { pattern: "**/*.conf", path: "/etc/nginx" },
      REAL_CLI.readOutside,
      "Yes, allow reading from /etc/ during this session",
    ),
    readRow(
      "Grep without a path searches the cwd, which the grant must cover",
      "Grep",
      { pattern: "TODO" },
      [addRule("Read", `/${CWD}/**`, "session")],
      `Yes, allow reading from ${CWD}/ during this session`,
    ),
    readRow(
      "Grep without a path: a grant that does not cover the cwd is not offered",
      "Grep",
      { pattern: "TODO" },
      REAL_CLI.readOutside,
      undefined,
    ),
    readRow(
      "a relative path is resolved against the cwd",
      "Read",
      { file_path: "notes/a.md" },
      [addRule("Read", `/${CWD}/notes/**`, "session")],
      `Yes, allow reading from ${CWD}/notes/ during this session`,
    ),
    readRow(
      "filesystem grants only when covering the current path",
      "Read",
      { file_path: "/var/log/syslog" },
      REAL_CLI.readOutside,
      undefined,
    ),
    readRow(
      "filesystem grants only when session-scoped: a localSettings read rule is not offered",
      "Read",
      { file_path: "/etc/hostname" },
      [addRule("Read", "//etc/**", "localSettings")],
      undefined,
    ),
    readRow(
      "filesystem grants only when session-scoped: one non-session update voids the bundle",
      "Read",
      { file_path: "/etc/hostname" },
      [addRule("Read", "//etc/**", "session"), addDirectories(["/srv"], "localSettings")],
      undefined,
    ),
    readRow(
      "never label part of a mixed bundle: a setMode next to the read grant",
      "Read",
      { file_path: "/etc/hostname" },
      [addRule("Read", "//etc/**", "session"), setMode("acceptEdits")],
      undefined,
    ),
    readRow(
      "never label part of a mixed bundle: a rule for another tool next to the read grant",
      "Read",
      { file_path: "/etc/hostname" },
      [addRule("Read", "//etc/**", "session"), addRule("Bash", "cat *", "session")],
      undefined,
    ),
    readRow(
      "a deny read rule is not a grant",
      "Read",
      { file_path: "/etc/hostname" },
      [addRule("Read", "//etc/**", "session", "deny")],
      undefined,
    ),
    readRow(
      "a read rule that is not an absolute `//dir/**` is not offered",
      "Read",
      { file_path: "/etc/hostname" },
      [addRule("Read", "/etc/**", "session")],
      undefined,
    ),
    readRow("no path to cover: no grant", "Read", {}, REAL_CLI.readOutside, undefined),
  ]);
});

describe("Edit / Write / NotebookEdit: one-time allow; matching session edit grant, including `.claude` handling; reject", () => {
  const ownSettings = "Yes, and allow Claude to edit its own settings for this session";
  const projectClaude: PermissionUpdate[] = [addRule("Edit", "/.claude/**", "session")];
  const homeClaude: PermissionUpdate[] = [addRule("Edit", "~/.claude/**", "session")];
  const editRow = (
    rule: string,
    tool: string,
    input: ToolInput,
    suggestions: PermissionUpdate[] | undefined,
    label: string | undefined,
    effect: Effect = "snapshot",
    spec: AskSpec = {},
  ): Row => ({
    rule,
    tool,
    input,
    spec: { suggestions, ...spec },
    options: label ? [YES, always(label), NO] : [YES, NO],
    effects: label ? [effect] : [],
  });
  checkRows([
    editRow(
      "real CLI `Write` in cwd: session setMode acceptEdits reads `Yes, allow all edits during this session`",
      "Write",
      { file_path: `${CWD}/src/a.ts`, content: "x" },
      REAL_CLI.editInCwd,
      "Yes, allow all edits during this session",
    ),
    editRow(
      "real CLI `Edit` in cwd: the same grant",
      "Edit",
      { file_path: `${CWD}/src/a.ts`, old_string: "a", new_string: "b" },
      REAL_CLI.editInCwd,
      "Yes, allow all edits during this session",
    ),
    editRow(
      "NotebookEdit: its notebook_path is the path",
      "NotebookEdit",
      { notebook_path: `${CWD}/analysis.ipynb`, new_source: "x" },
      REAL_CLI.editInCwd,
      "Yes, allow all edits during this session",
    ),
    editRow(
      "acceptEdits covers every working directory, additional ones included",
      "Edit",
      { file_path: "/extra/src/a.ts" },
      REAL_CLI.editInCwd,
      "Yes, allow all edits during this session",
      "snapshot",
      { workingDirectories: [CWD, "/extra"] },
    ),
    editRow(
      "real CLI `Write` outside cwd: setMode acceptEdits + addDirectories switches the whole session to accept edits and says so: `Yes, allow all edits during this session, including in <dir>/`",
      "Write",
      { file_path: "/outside/dir/new.txt", content: "x" },
      REAL_CLI.writeOutside,
      "Yes, allow all edits during this session, including in /outside/dir/",
    ),
    editRow(
      "the same bundle for a path in a working directory states the whole bundle too",
      "Edit",
      { file_path: `${CWD}/src/a.ts` },
      REAL_CLI.writeOutside,
      "Yes, allow all edits during this session, including in /outside/dir/",
    ),
    editRow(
      "addDirectories alone covering the path: `Yes, and allow access to <dir>/ during this session`",
      "Edit",
      { file_path: "/outside/dir/a.txt" },
      [addDirectories(["/outside/dir"])],
      "Yes, and allow access to /outside/dir/ during this session",
    ),
    editRow(
      "acceptEdits for a path outside every working directory is not offered",
      "Edit",
      { file_path: "/outside/dir/a.txt" },
      REAL_CLI.editInCwd,
      undefined,
    ),
    editRow(
      "acceptEdits + addDirectories not covering the path is not offered",
      "Write",
      { file_path: "/elsewhere/a.txt" },
      REAL_CLI.writeOutside,
      undefined,
    ),
    editRow(
      "addDirectories not covering the path is not offered",
      "Write",
      { file_path: "/elsewhere/a.txt" },
      [addDirectories(["/outside/dir"])],
      undefined,
    ),
    editRow(
      "filesystem grants only when session-scoped: acceptEdits in local settings is not offered",
      "Edit",
      { file_path: `${CWD}/a.ts` },
      [setMode("acceptEdits", "localSettings")],
      undefined,
    ),
    editRow(
      "a setMode to another mode is not an edit grant",
      "Edit",
      { file_path: `${CWD}/a.ts` },
      [setMode("bypassPermissions")],
      undefined,
    ),
    editRow(
      "never label part of a mixed bundle: a rule next to acceptEdits",
      "Edit",
      { file_path: `${CWD}/a.ts` },
      [setMode("acceptEdits"), addRule("Bash", "rm *", "session")],
      undefined,
    ),
    editRow(
      "real CLI `Edit .claude/settings.json`: a generated session `Edit(/.claude/**)` rule, `Yes, and allow Claude to edit its own settings for this session`",
      "Edit",
      { file_path: `${CWD}/.claude/settings.json` },
      REAL_CLI.editClaudeSettings,
      ownSettings,
      projectClaude,
    ),
    editRow(
      "`.claude` in the project: the generated rule is offered even without suggestions",
      "Write",
      { file_path: `${CWD}/.claude/other.json`, content: "{}" },
      undefined,
      ownSettings,
      projectClaude,
    ),
    editRow(
      "`.claude` in the project, given relatively",
      "Write",
      { file_path: ".claude/agents/a.md", content: "x" },
      undefined,
      ownSettings,
      projectClaude,
    ),
    editRow(
      "`~/.claude`: a generated session `Edit(~/.claude/**)` rule",
      "Edit",
      { file_path: `${HOME}/.claude/settings.json` },
      REAL_CLI.editClaudeSettings,
      ownSettings,
      homeClaude,
    ),
    editRow(
      "NotebookEdit inside `.claude` gets the same generated rule",
      "NotebookEdit",
      { notebook_path: `${CWD}/.claude/n.ipynb` },
      undefined,
      ownSettings,
      projectClaude,
    ),
    editRow(
      "a sibling such as `.claudeX/` is not Claude's folder",
      "Edit",
      { file_path: `${CWD}/.claudeX/a.json` },
      REAL_CLI.editInCwd,
      "Yes, allow all edits during this session",
    ),
    editRow("no path: no grant", "Edit", {}, REAL_CLI.editInCwd, undefined),
  ]);
});

describe("WebFetch: one-time allow; generated `domain:<hostname>` local rule; reject", () => {
  checkRows([
    {
      rule: "real CLI `WebFetch`: `Yes, and don't ask again for example.com` with a local `WebFetch(domain:example.com)` rule",
      tool: "WebFetch",
      input: { url: "https://example.com/docs?q=1", prompt: "summarize" },
      spec: { suggestions: REAL_CLI.webFetch },
      options: [YES, always("Yes, and don't ask again for example.com in this project"), NO],
      effects: [local("WebFetch", "domain:example.com")],
    },
    {
      rule: "the rule is generated from the URL's hostname (lower case, no port), with or without a suggestion",
      tool: "WebFetch",
      input: { url: "http://Docs.Example.COM:8080/a" },
      options: [YES, always("Yes, and don't ask again for docs.example.com in this project"), NO],
      effects: [local("WebFetch", "domain:docs.example.com")],
    },
    {
      rule: "the SDK's suggestion never replaces the generated rule",
      tool: "WebFetch",
      input: { url: "https://example.com/" },
      spec: { suggestions: [addRule("WebFetch", "domain:other.org", "userSettings")] },
      options: [YES, always("Yes, and don't ask again for example.com in this project"), NO],
      effects: [local("WebFetch", "domain:example.com")],
    },
    ...["not a url", "file:///etc/passwd", "ftp://example.com/x", ""].map((url): Row => ({
      rule: `no hostname to state (${JSON.stringify(url)}): one-time allow and reject`,
      tool: "WebFetch",
      input: { url },
      options: [YES, NO],
    })),
  ]);
});

describe("Skill: one-time allow; exact skill and optional `prefix:*` local rules; reject", () => {
  const exact = (skill: string) =>
    always(`Yes, and don't ask again for ${skill} in this project`, "allow-skill-exact");
  const prefix = (word: string) =>
    always(`Yes, and don't ask again for ${word}:* commands in this project`, "allow-skill-prefix");
  checkRows([
    {
      rule: "a skill without arguments: the exact rule only",
      tool: "Skill",
      input: { skill: "commit" },
      options: [YES, exact("commit"), NO],
      effects: [local("Skill", "commit")],
    },
    {
      rule: "arguments follow: the exact invocation and the first word's `prefix:*` rule",
      tool: "Skill",
      input: { skill: "review-pr 123" },
      options: [YES, exact("review-pr 123"), prefix("review-pr"), NO],
      effects: [local("Skill", "review-pr 123"), local("Skill", "review-pr:*")],
    },
    {
      rule: "current CLIs send arguments as `args`: the exact skill and its `prefix:*` rule",
      tool: "Skill",
      input: { skill: "greet", args: "world" },
      options: [YES, exact("greet"), prefix("greet"), NO],
      effects: [local("Skill", "greet"), local("Skill", "greet:*")],
    },
    {
      rule: "blank `args` are no arguments: the exact rule only",
      tool: "Skill",
      input: { skill: "greet", args: "  " },
      options: [YES, exact("greet"), NO],
      effects: [local("Skill", "greet")],
    },
    {
      rule: "no prefix when the first word holds `:` (namespaced)",
      tool: "Skill",
      input: { skill: "plugin:review 123" },
      options: [YES, exact("plugin:review 123"), NO],
      effects: [local("Skill", "plugin:review 123")],
    },
    {
      rule: "no prefix when the first word holds `*` (a pattern)",
      tool: "Skill",
      input: { skill: "rev* 123" },
      options: [YES, exact("rev* 123"), NO],
      effects: [local("Skill", "rev* 123")],
    },
    {
      rule: "surrounding whitespace is not part of the skill",
      tool: "Skill",
      input: { skill: "  commit  " },
      options: [YES, exact("commit"), NO],
      effects: [local("Skill", "commit")],
    },
    {
      rule: "a blank skill: one-time allow and reject",
      tool: "Skill",
      input: { skill: "   " },
      options: [YES, NO],
    },
    {
      rule: "a skill name that cannot be shown exactly (control characters) is not persisted",
      tool: "Skill",
      input: { skill: "commit\u001b[2K -m x" },
      options: [YES, NO],
    },
    {
      rule: "a skill name beyond the rule-content bound is not persisted",
      tool: "Skill",
      input: { skill: "s".repeat(10_001) },
      options: [YES, NO],
    },
  ]);
});

describe("EnterPlanMode: enter plan mode once, or reject and continue implementing", () => {
  checkRows([
    {
      rule: "`Yes, enter plan mode` / `No, start implementing now`",
      tool: "EnterPlanMode",
      options: [
        { id: "allow-once", name: "Yes, enter plan mode", kind: "allow_once" },
        { id: "reject", name: "No, start implementing now", kind: "reject_once" },
      ],
    },
    {
      rule: "suggestions never add a durable choice",
      tool: "EnterPlanMode",
      spec: { suggestions: [setMode("plan")] },
      options: [
        { id: "allow-once", name: "Yes, enter plan mode", kind: "allow_once" },
        { id: "reject", name: "No, start implementing now", kind: "reject_once" },
      ],
    },
  ]);
});

describe("ExitPlanMode: one keep-context and one clear-context elevated mode (auto > bypass > accept edits), manual approval, or reject", () => {
  const manual: OptionView = {
    id: "exit-plan-default",
    name: "Yes, manually approve edits",
    kind: "allow_once",
  };
  const keepPlanning: OptionView = { id: "reject", name: "No, keep planning", kind: "reject_once" };
  const elevated = (id: string, name: string): OptionView => ({ id, name, kind: "allow_always" });
  const rows: Array<{
    rule: string;
    modes: string[];
    plan: string;
    percent?: number;
    options: OptionView[];
  }> = [
    {
      rule: "auto is preferred over bypassPermissions and acceptEdits, in both choices",
      modes: ["default", "acceptEdits", "bypassPermissions", "auto", "plan"],
      plan: "1. Change a.ts",
      percent: 42,
      options: [
        manual,
        elevated("exit-plan-clear-auto", "Yes, clear context (42% used) and use auto mode"),
        elevated("exit-plan-auto", "Yes, and use auto mode"),
        keepPlanning,
      ],
    },
    {
      rule: "without auto, bypassPermissions is preferred over acceptEdits",
      modes: ["default", "acceptEdits", "bypassPermissions", "plan"],
      plan: "1. Change a.ts",
      percent: 7,
      options: [
        manual,
        elevated("exit-plan-clear-bypass", "Yes, clear context (7% used) and bypass permissions"),
        elevated("exit-plan-bypass", "Yes, and bypass permissions"),
        keepPlanning,
      ],
    },
    {
      rule: "with only acceptEdits elevated: `auto-accept edits`",
      modes: ["default", "acceptEdits", "plan"],
      plan: "1. Change a.ts",
      percent: 0,
      options: [
        manual,
        elevated(
          "exit-plan-clear-accept-edits",
          "Yes, clear context (0% used) and auto-accept edits",
        ),
        elevated("exit-plan-accept-edits", "Yes, auto-accept edits"),
        keepPlanning,
      ],
    },
    {
      rule: "the percentage only when known",
      modes: ["acceptEdits"],
      plan: "1. Change a.ts",
      options: [
        manual,
        elevated("exit-plan-clear-accept-edits", "Yes, clear context and auto-accept edits"),
        elevated("exit-plan-accept-edits", "Yes, auto-accept edits"),
        keepPlanning,
      ],
    },
    {
      rule: "an unknown (NaN) percentage is not shown",
      modes: ["auto"],
      plan: "1. Change a.ts",
      percent: Number.NaN,
      options: [
        manual,
        elevated("exit-plan-clear-auto", "Yes, clear context and use auto mode"),
        elevated("exit-plan-auto", "Yes, and use auto mode"),
        keepPlanning,
      ],
    },
    {
      rule: "the percentage is a whole number",
      modes: ["auto"],
      plan: "1. Change a.ts",
      percent: 41.6,
      options: [
        manual,
        elevated("exit-plan-clear-auto", "Yes, clear context (42% used) and use auto mode"),
        elevated("exit-plan-auto", "Yes, and use auto mode"),
        keepPlanning,
      ],
    },
    {
      rule: "clear-context only with a non-empty plan: an empty plan keeps context only",
      modes: ["auto", "acceptEdits"],
      plan: "",
      percent: 42,
      options: [manual, elevated("exit-plan-auto", "Yes, and use auto mode"), keepPlanning],
    },
    {
      rule: "clear-context only with a non-empty plan: a blank plan is empty",
      modes: ["bypassPermissions"],
      plan: " \n\t ",
      options: [manual, elevated("exit-plan-bypass", "Yes, and bypass permissions"), keepPlanning],
    },
    {
      rule: "no elevated mode available: manual approval or keep planning",
      modes: ["default", "plan"],
      plan: "1. Change a.ts",
      options: [manual, keepPlanning],
    },
  ];
  it.each(rows)("$rule", ({ modes, plan, percent, options }) => {
    const spec: AskSpec = {
      plan: {
        availableModes: new Set(modes),
        planText: plan,
        ...(percent === undefined ? {} : { contextUsedPercent: percent }),
      },
    };
    expect(optionsFor("ExitPlanMode", {}, spec).options).toEqual(options);
  });

  it("each choice's effect is its mode, with clearContext only for clear-context ids", () => {
    const { choices } = optionsFor(
      "ExitPlanMode",
      {},
      {
        plan: { availableModes: new Set(["auto"]), planText: "plan" },
      },
    );
    expect(choices.map((c) => [c.option.optionId, c.effect])).toEqual([
      ["exit-plan-default", { type: "exitPlan", mode: "default", clearContext: false }],
      ["exit-plan-clear-auto", { type: "exitPlan", mode: "auto", clearContext: true }],
      ["exit-plan-auto", { type: "exitPlan", mode: "auto", clearContext: false }],
      ["reject", { type: "reject" }],
    ]);
  });

  it("real CLI `ExitPlanMode` with input `{}`: the plan comes from the session's plan file", () => {
    const { options } = optionsFor(
      "ExitPlanMode",
      {},
      {
        plan: { availableModes: new Set(["acceptEdits"]), planText: "# Plan\n1. Do it" },
      },
    );
    expect(options.map((o) => o.id)).toContain("exit-plan-clear-accept-edits");
  });
});

describe("SandboxNetworkAccess: one-time allow; exact SDK host rule when representable; reject", () => {
  const host = "registry.npmjs.org";
  const sandboxRow = (rule: string, suggestions: PermissionUpdate[], label?: string): Row => ({
    rule,
    tool: "SandboxNetworkAccess",
    input: { host },
    spec: { suggestions },
    options: label ? [YES, always(label), NO] : [YES, NO],
    effects: label ? ["snapshot"] : [],
  });
  checkRows([
    sandboxRow(
      "the CLI's `WebFetch(domain:<host>)` rule for the host asked about, in local settings",
      [addRule("WebFetch", `domain:${host}`, "localSettings")],
      `Yes, and don't ask again for ${host} in this project`,
    ),
    sandboxRow(
      "the same rule in the session says so",
      [addRule("WebFetch", `domain:${host}`, "session")],
      `Yes, and don't ask again for ${host} during this session`,
    ),
    sandboxRow("a rule for another host is not offered", [
      addRule("WebFetch", "domain:evil.example", "session"),
    ]),
    sandboxRow("a domain rule of another tool is not a host rule", [
      addRule("Bash", `domain:${host}`, "session"),
    ]),
    sandboxRow("a project-settings destination is not representable", [
      addRule("WebFetch", `domain:${host}`, "projectSettings"),
    ]),
    sandboxRow("never label part of a mixed bundle", [
      addRule("WebFetch", `domain:${host}`, "session"),
      setMode("acceptEdits"),
    ]),
    sandboxRow("a deny rule is not an allow", [
      addRule("WebFetch", `domain:${host}`, "session", "deny"),
    ]),
    sandboxRow("no suggestion: no durable choice (nothing is generated)", []),
  ]);
});

describe("MCP and Computer Use MCP: one-time allow; exact representable SDK allow suggestion for that tool; reject", () => {
  const mcpRow = (
    rule: string,
    tool: string,
    suggestions: PermissionUpdate[],
    label?: string,
  ): Row => ({
    rule,
    tool,
    input: { action: "screenshot" },
    spec: { suggestions },
    options: label ? [YES, always(label), NO] : [YES, NO],
    effects: label ? ["snapshot"] : [],
  });
  const cu = "mcp__computer-use__screenshot";
  const gh = "mcp__github__create_issue";
  checkRows([
    mcpRow(
      "Computer Use: a local allow rule for exactly this tool, `Yes, and don't ask again for <tool> commands`",
      cu,
      [addRule(cu, undefined, "localSettings")],
      `Yes, and don't ask again for ${cu} commands in this project`,
    ),
    mcpRow("Computer Use: nothing is generated without a suggestion", cu, []),
    mcpRow("Computer Use: a rule for another Computer Use tool is not offered", cu, [
      addRule("mcp__computer-use__click", undefined, "localSettings"),
    ]),
    mcpRow(
      "MCP: a local allow rule for exactly this tool",
      gh,
      [addRule(gh, undefined, "localSettings")],
      `Yes, and don't ask again for ${gh} commands in this project`,
    ),
    mcpRow(
      "MCP: a session rule says it lasts during this session",
      gh,
      [addRule(gh, undefined, "session")],
      `Yes, and don't ask again for ${gh} commands during this session`,
    ),
    mcpRow("MCP: nothing is generated without a suggestion", gh, []),
    mcpRow("MCP: a server-wide rule is not a rule for that tool", gh, [
      addRule("mcp__github", undefined, "localSettings"),
    ]),
    mcpRow("MCP: a rule with content is not the whole-tool rule the label states", gh, [
      addRule(gh, "repo:x", "localSettings"),
    ]),
    mcpRow("MCP: a user-settings destination is not representable", gh, [
      addRule(gh, undefined, "userSettings"),
    ]),
    mcpRow("MCP: never label part of a mixed bundle", gh, [
      addRule(gh, undefined, "localSettings"),
      addRule("mcp__github__delete_repo", undefined, "localSettings"),
    ]),
    mcpRow("MCP: two rules in one update are not exact", gh, [
      {
        type: "addRules",
        rules: [{ toolName: gh }, { toolName: "mcp__github__delete_repo" }],
        behavior: "allow",
        destination: "localSettings",
      },
    ]),
    mcpRow("MCP: an ask rule is not an allow", gh, [
      addRule(gh, undefined, "localSettings", "ask"),
    ]),
  ]);
});

describe("WebSearch / Agent / Task: one-time allow; generated whole-tool local rule; reject", () => {
  checkRows([
    {
      rule: "real CLI `WebSearch`: `Yes, and don't ask again for WebSearch commands` with a local `WebSearch` rule",
      tool: "WebSearch",
      input: { query: "vitest 4" },
      spec: { suggestions: REAL_CLI.webSearch },
      options: [YES, always("Yes, and don't ask again for WebSearch commands in this project"), NO],
      effects: [local("WebSearch")],
    },
    ...["Agent", "Task"].map((tool): Row => ({
      rule: `${tool}: the generated whole-tool rule, regardless of suggestions`,
      tool,
      input: { prompt: "x", subagent_type: "general-purpose" },
      spec: { suggestions: [addRule(tool, "general-purpose", "userSettings")] },
      options: [YES, always(`Yes, and don't ask again for ${tool} commands in this project`), NO],
      effects: [local(tool)],
    })),
  ]);
});

describe("ReviewArtifact / Workflow / Monitor / unknown tools: generic fallback behavior", () => {
  checkRows(
    ["ReviewArtifact", "Workflow", "Monitor", "SomeFutureTool", "constructor", "toString"].map(
      (tool): Row => ({
        rule: `${tool}: one-time allow; a generated whole-tool localSettings rule; reject`,
        tool,
        input: { anything: 1 },
        options: [YES, always(`Yes, and don't ask again for ${tool} commands in this project`), NO],
        effects: [local(tool)],
      }),
    ),
  );
  checkRows([
    {
      rule: "a tool name that cannot be shown exactly (bidi override) gets no generated rule",
      tool: "Tool\u202eevil",
      options: [YES, NO],
    },
  ]);
});

describe("matchedAskRule / suppressAlwaysAllowRule: all persistent choices are suppressed", () => {
  it("matchedAskRule or suppressAlwaysAllowRule forbid persistent choices; neither allows them", () => {
    expect(persistentChoicesAllowed({})).toBe(true);
    expect(persistentChoicesAllowed({ suppressAlwaysAllowRule: false })).toBe(true);
    expect(
      persistentChoicesAllowed({
        matchedAskRule: { source: "projectSettings", toolName: "Bash", ruleContent: "npm test:*" },
      }),
    ).toBe(false);
    expect(persistentChoicesAllowed({ suppressAlwaysAllowRule: true })).toBe(false);
  });

  it("an ask forced by a rule without matchedAskRule (decisionReasonType `rule`, as Claude Code 2.1 sends for most ask rules) forbids persistent choices", () => {
    expect(persistentChoicesAllowed({ decisionReasonType: "rule" })).toBe(false);
    expect(persistentChoicesAllowed({ decisionReasonType: "workingDir" })).toBe(true);
    expect(persistentChoicesAllowed({ decisionReasonType: "safetyCheck" })).toBe(true);
  });

  const cases: Array<{ tool: string; input: ToolInput; suggestions?: PermissionUpdate[] }> = [
    { tool: "Bash", input: { command: "npm test" }, suggestions: REAL_CLI.bashNpmTest },
    { tool: "Read", input: { file_path: "/etc/hostname" }, suggestions: REAL_CLI.readOutside },
    { tool: "Write", input: { file_path: `${CWD}/a.ts` }, suggestions: REAL_CLI.editInCwd },
    { tool: "Edit", input: { file_path: `${CWD}/.claude/settings.json` } },
    { tool: "WebFetch", input: { url: "https://example.com" } },
    { tool: "Skill", input: { skill: "review 1" } },
    {
      tool: "SandboxNetworkAccess",
      input: { host: "a.b" },
      suggestions: [addRule("WebFetch", "domain:a.b", "session")],
    },
    {
      tool: "mcp__github__x",
      input: {},
      suggestions: [addRule("mcp__github__x", undefined, "session")],
    },
    { tool: "WebSearch", input: {} },
    { tool: "Monitor", input: {} },
  ];
  it.each(cases)("$tool: only one-time allow and reject remain", ({ tool, input, suggestions }) => {
    const offered = optionsFor(tool, input, { suggestions }).options;
    expect(offered.some((o) => o.kind === "allow_always")).toBe(true);
    const suppressed = optionsFor(tool, input, {
      suggestions,
      persistentChoicesAllowed: false,
    }).options;
    expect(suppressed).toEqual([YES, NO]);
  });

  it("ExitPlanMode keeps its mode choices (they change the session mode, not a rule)", () => {
    const spec: AskSpec = {
      plan: { availableModes: new Set(["auto"]), planText: "p" },
      persistentChoicesAllowed: false,
    };
    expect(optionsFor("ExitPlanMode", {}, spec).options.map((o) => o.id)).toEqual([
      "exit-plan-default",
      "exit-plan-clear-auto",
      "exit-plan-auto",
      "reject",
    ]);
  });

  it("EnterPlanMode is unchanged", () => {
    const spec: AskSpec = { persistentChoicesAllowed: false };
    expect(optionsFor("EnterPlanMode", {}, spec).options).toHaveLength(2);
  });
});

describe("Durable SDK suggestions: invalid suggestion arrays never become choices", () => {
  const invalid: Array<[string, unknown]> = [
    ["an empty array", []],
    [
      "an unknown update type",
      [...REAL_CLI.bashNpmTest, { type: "addHooks", destination: "session" }],
    ],
    ["an unknown destination", [addRule("Bash", "npm test *", "teamSettings" as "session")]],
    ["a non-array", { type: "addRules" }],
  ];
  it.each(invalid)("%s: one-time allow and reject only", (_what, suggestions) => {
    expect(optionsFor("Bash", { command: "npm test" }, { suggestions }).options).toEqual([YES, NO]);
  });
});

describe("Labels (design.md): every template, verbatim", () => {
  const labelOf = (tool: string, input: ToolInput, spec: AskSpec = {}): string[] =>
    optionsFor(tool, input, spec).options.map((o) => o.name);
  const rows: Array<[template: string, labels: () => string[]]> = [
    ["Yes", () => labelOf("Bash", { command: "ls" })],
    ["No", () => labelOf("Bash", { command: "ls" })],
    [
      "Yes, and don't ask again for npm test, git status, and ls commands in this project",
      () =>
        labelOf(
          "Bash",
          { command: "npm test && git status && ls" },
          {
            suggestions: [
              addRule("Bash", "npm test *", "localSettings"),
              addRule("Bash", "git status *", "localSettings"),
              addRule("Bash", "ls:*", "localSettings"),
            ],
          },
        ),
    ],
    [
      "Yes, and don't ask again for any npm run command (broader than this command) in this project",
      () =>
        labelOf(
          "Bash",
          { command: "npm run build" },
          { suggestions: [addRule("Bash", "npm run *", "localSettings")] },
        ),
    ],
    [
      "Yes, allow reading from /etc/ in this project",
      () => labelOf("Bash", {}, { suggestions: [addRule("Read", "//etc/**", "localSettings")] }),
    ],
    [
      "Yes, and always allow access to /data/ in this project",
      () => labelOf("Bash", {}, { suggestions: [addDirectories(["/data"], "localSettings")] }),
    ],
    [
      "Yes, and don't ask again for npm test commands in this project and always allow access to /data/ in this project",
      () =>
        labelOf(
          "Bash",
          { command: "npm test" },
          {
            suggestions: [
              addRule("Bash", "npm test *", "localSettings"),
              addDirectories(["/data"], "localSettings"),
            ],
          },
        ),
    ],
    [
      "Yes, allow all edits during this session",
      () => labelOf("Edit", { file_path: `${CWD}/a` }, { suggestions: REAL_CLI.editInCwd }),
    ],
    [
      "Yes, allow reading from /etc/ during this session",
      () => labelOf("Read", { file_path: "/etc/hosts" }, { suggestions: REAL_CLI.readOutside }),
    ],
    [
      "Yes, allow all edits during this session, including in /outside/dir/",
      () =>
        labelOf("Write", { file_path: "/outside/dir/a" }, { suggestions: REAL_CLI.writeOutside }),
    ],
    [
      "Yes, and allow Claude to edit its own settings for this session",
      () => labelOf("Edit", { file_path: `${CWD}/.claude/settings.json` }),
    ],
    [
      "Yes, and don't ask again for example.com in this project",
      () => labelOf("WebFetch", { url: "https://example.com" }),
    ],
    [
      "Yes, and don't ask again for review 12 in this project",
      () => labelOf("Skill", { skill: "review 12" }),
    ],
    [
      "Yes, and don't ask again for review:* commands in this project",
      () => labelOf("Skill", { skill: "review 12" }),
    ],
    ["Yes, enter plan mode", () => labelOf("EnterPlanMode", {})],
    ["No, start implementing now", () => labelOf("EnterPlanMode", {})],
    ...(
      [
        ["auto", "use auto mode", "Yes, and use auto mode"],
        ["bypassPermissions", "bypass permissions", "Yes, and bypass permissions"],
        ["acceptEdits", "auto-accept edits", "Yes, auto-accept edits"],
      ] as const
    ).flatMap(([mode, tail, keep]): Array<[string, () => string[]]> => {
      const spec: AskSpec = {
        plan: { availableModes: new Set([mode]), planText: "p", contextUsedPercent: 30 },
      };
      return [
        [`Yes, clear context (30% used) and ${tail}`, () => labelOf("ExitPlanMode", {}, spec)],
        [keep, () => labelOf("ExitPlanMode", {}, spec)],
      ];
    }),
    ["Yes, manually approve edits", () => labelOf("ExitPlanMode", {})],
    ["No, keep planning", () => labelOf("ExitPlanMode", {})],
    [
      "Yes, and don't ask again for mcp__db__query commands in this project",
      () =>
        labelOf(
          "mcp__db__query",
          {},
          { suggestions: [addRule("mcp__db__query", undefined, "localSettings")] },
        ),
    ],
    ["Yes, and don't ask again for Monitor commands in this project", () => labelOf("Monitor", {})],
  ];
  it.each(rows)("`%s`", (template, labels) => {
    expect(labels()).toContain(template);
  });
});

describe("Builders are pure functions of the ask", () => {
  it("building twice gives equal options and does not touch the snapshot", () => {
    const ask = makeAsk("Bash", { command: "npm test" }, { suggestions: REAL_CLI.bashNpmTest });
    const before = structuredClone(ask.suggestions);
    const first: PermissionChoice[] = buildChoices(ask);
    expect(view(buildChoices(ask))).toEqual(view(first));
    expect(ask.suggestions).toEqual(before);
  });
});
