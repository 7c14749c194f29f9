// Live capability audit, shell family: what the real Claude Code passes to `canUseTool`
// for Bash commands, and the options the agent's builders make of it. An SDK upgrade that
// changes a suggestion, a destination or a field the builders read fails here, loudly.
// Scripted API by default (always run); the real API with CLAUDE_AGENT_ACP_LIVE_AUDIT=1
// and ANTHROPIC_API_KEY (see support/audit/run.ts).
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { TurnSpec } from "../../scripted-api/index.js";
import { optionsShown, presentationOf } from "../support/audit/choices.js";
import { askOf, toolUses } from "../support/audit/expect.js";
import { LIVE_AUDIT, runAudit, type AuditDirs, type AuditRun } from "../support/audit/run.js";

/** The commands audited, in the order the conversation runs them. */
function commands(dirs: AuditDirs) {
  return {
    npmTest: "npm test",
    mkdirOutside: `mkdir -p ${join(dirs.outside, "dir")}`,
    chained: "git status && npm test",
    redirect: "echo hi > out.txt",
    /** Forced to ask by the project's ask rule (see SETTINGS). */
    askRule: "npm run lint",
  };
}

const ASK_RULE = "Bash(npm run lint:*)";
const DENIED = "Not allowed during this audit; go on with the next command.";

function start(live: boolean): Promise<AuditRun> {
  return runAudit({
    files: (dirs) => ({
      [join(dirs.cwd, ".claude", "settings.json")]: JSON.stringify({
        permissions: { ask: [ASK_RULE] },
      }),
    }),
    prompt: (dirs) =>
      live
        ? "Run each of these shell commands with the Bash tool, one call per command, exactly " +
          "as written, in this order, even if one is refused:\n" +
          Object.values(commands(dirs))
            .map((c, i) => `${i + 1}. ${c}`)
            .join("\n")
        : "Run the audit commands.",
    ...(live
      ? {}
      : {
          scenario: (dirs: AuditDirs): TurnSpec[] =>
            Object.entries(commands(dirs)).map(([name, command]) => ({
              content: [
                { type: "tool_use", id: `toolu_audit_${name}`, name: "Bash", input: { command } },
              ],
            })),
        }),
    // Nothing runs: the audit is about what is asked, not what the commands do.
    answer: () => ({ behavior: "deny", message: DENIED }),
  });
}

const yes = { id: "allow-once", name: "Yes", kind: "allow_once", effect: { type: "allowOnce" } };
const no = { id: "reject", name: "No", kind: "reject_once", effect: { type: "reject" } };
/** A rule's content: "npm test *" now, "npm test:*" from older CLIs (design.md). */
const prefixRule = (prefix: string): unknown =>
  expect.stringMatching(new RegExp(`^${prefix}(:\\*| \\*)$`));

function auditShell(variant: string, live: boolean): void {
  describe.runIf(!live || LIVE_AUDIT)(`Bash asks (${variant})`, () => {
    let run: AuditRun;
    let cmd: ReturnType<typeof commands>;
    beforeAll(async () => {
      run = await start(live);
      cmd = commands(run.dirs);
    }, 150_000);
    const bash = (command: string) => askOf(run, "Bash", (input) => input.command === command);

    it("asks about every audited command once, naming the model's tool use id", () => {
      const uses = toolUses(run.messages).filter((u) => u.name === "Bash");
      for (const command of Object.values(cmd)) {
        const ask = bash(command);
        const use = uses.find((u) => (u.input as { command?: unknown }).command === command);
        expect(ask.context.toolUseID).toBe(use?.id);
        expect(ask.context.toolUseID).toEqual(expect.any(String));
      }
    });

    it("npm test: one allow rule for the prefix in local settings; the agent offers it by name", () => {
      const ask = bash(cmd.npmTest);
      const rule = { toolName: "Bash", ruleContent: prefixRule("npm test") };
      expect(ask.context.suggestions).toEqual([
        { type: "addRules", rules: [rule], behavior: "allow", destination: "localSettings" },
      ]);
      expect(ask.context.blockedPath).toBeUndefined();
      expect(ask.context.matchedAskRule).toBeUndefined();
      expect(optionsShown(ask, run.dirs)).toEqual([
        yes,
        {
          id: "allow-with-updates",
          name: "Yes, and don't ask again for npm test commands in this project",
          kind: "allow_always",
          effect: { type: "allowWithUpdates", updates: ask.context.suggestions },
        },
        no,
      ]);
      // The CLI's reason, when it gives one, is the request's description.
      const reason = ask.context.decisionReason;
      expect(presentationOf(ask, cmd.npmTest)).toEqual({
        version: 1,
        title: cmd.npmTest,
        ...(reason ? { description: `Reason: ${reason}` } : {}),
      });
    });

    it("mkdir outside the cwd: exact command rule, the parent directory and acceptEdits; too mixed to offer as one option", () => {
      const ask = bash(cmd.mkdirOutside);
      const target = join(run.dirs.outside, "dir");
      expect(ask.context.blockedPath).toBe(target);
      expect(ask.context.suggestions).toEqual([
        {
          type: "addRules",
          rules: [{ toolName: "Bash", ruleContent: cmd.mkdirOutside }],
          behavior: "allow",
          destination: "localSettings",
        },
        { type: "addDirectories", directories: [run.dirs.outside], destination: "session" },
        { type: "setMode", mode: "acceptEdits", destination: "session" },
      ]);
      // A shell label cannot state a mode switch: only the one-time choices.
      expect(optionsShown(ask, run.dirs)).toEqual([yes, no]);
    });

    it("a chained command: a rule for the part that needs approval only, with decisionReasonType subcommandResults", () => {
      const ask = bash(cmd.chained);
      expect(ask.context.decisionReasonType).toBe("subcommandResults");
      expect(ask.context.suggestions).toEqual([
        {
          type: "addRules",
          rules: [{ toolName: "Bash", ruleContent: prefixRule("npm test") }],
          behavior: "allow",
          destination: "localSettings",
        },
      ]);
      expect(optionsShown(ask, run.dirs).map((o) => o.name)).toEqual([
        "Yes",
        "Yes, and don't ask again for npm test commands in this project",
        "No",
      ]);
    });

    it("a redirect into the cwd: the echo prefix plus the cwd for the session, and blockedPath is the target file", () => {
      const ask = bash(cmd.redirect);
      expect(ask.context.blockedPath).toBe(join(run.dirs.cwd, "out.txt"));
      expect(ask.context.suggestions).toEqual([
        {
          type: "addRules",
          rules: [{ toolName: "Bash", ruleContent: prefixRule("echo hi") }],
          behavior: "allow",
          destination: "localSettings",
        },
        { type: "addDirectories", directories: [run.dirs.cwd], destination: "session" },
      ]);
      expect(optionsShown(ask, run.dirs)).toEqual([
        yes,
        {
          id: "allow-with-updates",
          name: `Yes, and don't ask again for any echo hi command (broader than this command) in this project and allow access to ${run.dirs.cwd}/ during this session`,
          kind: "allow_always",
          effect: { type: "allowWithUpdates", updates: ask.context.suggestions },
        },
        no,
      ]);
    });

    it("a command forced by an ask rule: decisionReasonType rule, no suggestions and no matchedAskRule; only one-time choices", () => {
      const ask = bash(cmd.askRule);
      expect(ask.context.decisionReasonType).toBe("rule");
      expect(ask.context.suggestions).toBeUndefined();
      // The SDK documents matchedAskRule for rule-forced asks, but this CLI sends it only
      // when the tool would have asked anyway (see the web audit).
      expect(ask.context.matchedAskRule).toBeUndefined();
      expect(optionsShown(ask, run.dirs)).toEqual([yes, no]);
    });
  });
}

auditShell("scripted API", false);
auditShell("live API", true);
