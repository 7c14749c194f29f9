// Live capability audit, filesystem family: what the real Claude Code passes to
// `canUseTool` for Read, Write and Edit inside and outside the cwd and for its own
// settings file, and the options the agent's builders make of it. Scripted API by
// default (always run); the real API with CLAUDE_AGENT_ACP_LIVE_AUDIT=1 and
// ANTHROPIC_API_KEY (see support/audit/run.ts).
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { TurnSpec } from "../../scripted-api/index.js";
import { optionsShown, presentationOf } from "../support/audit/choices.js";
import { askOf } from "../support/audit/expect.js";
import { LIVE_AUDIT, runAudit, type AuditDirs, type AuditRun } from "../support/audit/run.js";

const SETTINGS_BEFORE = '"allow": []';
const SETTINGS_AFTER = '"allow": ["Bash(ls:*)"]';

function paths(dirs: AuditDirs) {
  return {
    outsideRead: join(dirs.outside, "notes.txt"),
    insideRead: join(dirs.cwd, "notes.txt"),
    insideWrite: join(dirs.cwd, "new.txt"),
    outsideWrite: join(dirs.outside, "new.txt"),
    settings: join(dirs.cwd, ".claude", "settings.json"),
  };
}

/** The tool calls of the conversation, in order (an Edit needs a Read of its file first). */
function steps(dirs: AuditDirs): Array<{ tool: string; input: Record<string, unknown> }> {
  const p = paths(dirs);
  return [
    { tool: "Read", input: { file_path: p.outsideRead } },
    { tool: "Read", input: { file_path: p.insideRead } },
    { tool: "Write", input: { file_path: p.insideWrite, content: "new\n" } },
    { tool: "Edit", input: { file_path: p.insideRead, old_string: "hello", new_string: "bye" } },
    { tool: "Write", input: { file_path: p.outsideWrite, content: "new\n" } },
    { tool: "Read", input: { file_path: p.settings } },
    {
      tool: "Edit",
      input: { file_path: p.settings, old_string: SETTINGS_BEFORE, new_string: SETTINGS_AFTER },
    },
  ];
}

function start(live: boolean): Promise<AuditRun> {
  return runAudit({
    files: (dirs) => {
      const p = paths(dirs);
      return {
        [p.outsideRead]: "outside\n",
        [p.insideRead]: "hello\n",
        [p.settings]: `{\n  "permissions": { ${SETTINGS_BEFORE} }\n}\n`,
      };
    },
    prompt: (dirs) =>
      live
        ? "Make exactly these tool calls, one per step, in this order, even if one is refused:\n" +
          steps(dirs)
            .map((s, i) => `${i + 1}. ${s.tool} with input ${JSON.stringify(s.input)}`)
            .join("\n")
        : "Run the audit steps.",
    ...(live
      ? {}
      : {
          scenario: (dirs: AuditDirs): TurnSpec[] =>
            steps(dirs).map((s) => ({
              content: [{ type: "tool_use", name: s.tool, input: s.input }],
            })),
        }),
    // Everything happens inside the audit's temp dirs.
  });
}

const yes = { id: "allow-once", name: "Yes", kind: "allow_once", effect: { type: "allowOnce" } };
const no = { id: "reject", name: "No", kind: "reject_once", effect: { type: "reject" } };
const OUTSIDE_REASON = "Path is outside allowed working directories";

function auditFilesystem(variant: string, live: boolean): void {
  describe.runIf(!live || LIVE_AUDIT)(`filesystem asks (${variant})`, () => {
    let run: AuditRun;
    let p: ReturnType<typeof paths>;
    beforeAll(async () => {
      run = await start(live);
      p = paths(run.dirs);
    }, 150_000);
    const onFile = (tool: string, path: string) =>
      askOf(run, tool, (input) => input.file_path === path);

    it("Read outside the cwd: a session read rule for the file's directory; the agent offers it as a session grant", () => {
      const ask = onFile("Read", p.outsideRead);
      expect(ask.context.decisionReason).toBe(OUTSIDE_REASON);
      expect(ask.context.decisionReasonType).toBe("workingDir");
      expect(ask.context.suggestions).toEqual([
        {
          type: "addRules",
          rules: [{ toolName: "Read", ruleContent: `/${run.dirs.outside}/**` }],
          behavior: "allow",
          destination: "session",
        },
      ]);
      expect(optionsShown(ask, run.dirs)).toEqual([
        yes,
        {
          id: "allow-with-updates",
          name: `Yes, allow reading from ${run.dirs.outside}/ during this session`,
          kind: "allow_always",
          effect: { type: "allowWithUpdates", updates: ask.context.suggestions },
        },
        no,
      ]);
      expect(presentationOf(ask, "Read x").description).toBe(`Reason: ${OUTSIDE_REASON}`);
    });

    it("Read inside the cwd is not asked", () => {
      expect(
        run.asks.filter((a) => a.input.file_path === p.insideRead && a.toolName === "Read"),
      ).toEqual([]);
    });

    it("Write and Edit in the cwd: setMode acceptEdits for the session; the agent offers it as all edits this session", () => {
      for (const ask of [onFile("Write", p.insideWrite), onFile("Edit", p.insideRead)]) {
        expect(ask.context.suggestions).toEqual([
          { type: "setMode", mode: "acceptEdits", destination: "session" },
        ]);
        expect(ask.context.blockedPath).toBeUndefined();
        expect(optionsShown(ask, run.dirs)).toEqual([
          yes,
          {
            id: "allow-with-updates",
            name: "Yes, allow all edits during this session",
            kind: "allow_always",
            effect: { type: "allowWithUpdates", updates: ask.context.suggestions },
          },
          no,
        ]);
      }
    });

    it("Write outside the cwd: acceptEdits plus the directory for the session; the agent offers edits in that directory", () => {
      const ask = onFile("Write", p.outsideWrite);
      expect(ask.context.decisionReason).toBe(OUTSIDE_REASON);
      expect(ask.context.suggestions).toEqual([
        { type: "setMode", mode: "acceptEdits", destination: "session" },
        { type: "addDirectories", directories: [run.dirs.outside], destination: "session" },
      ]);
      expect(optionsShown(ask, run.dirs)).toEqual([
        yes,
        {
          id: "allow-with-updates",
          name: `Yes, allow all edits during this session, including in ${run.dirs.outside}/`,
          kind: "allow_always",
          effect: { type: "allowWithUpdates", updates: ask.context.suggestions },
        },
        no,
      ]);
    });

    it("Edit .claude/settings.json in default mode: a safety check; the agent offers its own session rule for the .claude folder", () => {
      const ask = onFile("Edit", p.settings);
      expect(ask.context.decisionReasonType).toBe("safetyCheck");
      expect(ask.context.decisionReason).toEqual(expect.stringContaining(p.settings));
      // The CLI suggests acceptEdits, which does not reach .claude: the agent does not use it.
      expect(ask.context.suggestions).toEqual([
        { type: "setMode", mode: "acceptEdits", destination: "session" },
      ]);
      expect(optionsShown(ask, run.dirs)).toEqual([
        yes,
        {
          id: "allow-with-updates",
          name: "Yes, and allow Claude to edit its own settings for this session",
          kind: "allow_always",
          effect: {
            type: "allowWithUpdates",
            updates: [
              {
                type: "addRules",
                rules: [{ toolName: "Edit", ruleContent: "/.claude/**" }],
                behavior: "allow",
                destination: "session",
              },
            ],
          },
        },
        no,
      ]);
    });

    it("names the tool use in every ask and sends no matchedAskRule without ask rules", () => {
      expect(run.asks.length).toBeGreaterThanOrEqual(5);
      for (const ask of run.asks) {
        expect(ask.context.toolUseID).toMatch(/^toolu_/);
        expect(ask.context.matchedAskRule).toBeUndefined();
      }
    });
  });
}

auditFilesystem("scripted API", false);
auditFilesystem("live API", true);
