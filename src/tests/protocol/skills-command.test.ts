// `/skills`: Claude Code's own command is a terminal dialog, so the agent answers it, listing
// the skills Claude Code reads again from disk; the command is offered with the others.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type SessionNotification } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { SKILLS_ANSWER_KIND } from "../../skills/command.js";
import { fakeClaude } from "../support/fake-claude.js";
import { connectInProcess } from "../support/in-process.js";
import { settle } from "../support/settle.js";

const cwd = mkdtempSync(join(tmpdir(), "skills-command-"));
let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

const skill = (name: string, description: string, argumentHint = "") => ({
  name,
  description,
  argumentHint,
});

async function setup() {
  const claude = fakeClaude({
    commands: [
      skill("greet", "Greets (project)", "[topic]"),
      skill("skills", "Claude Code's dialog"),
    ],
  });
  const harness = await connectInProcess({ startQuery: claude.startQuery });
  cleanup.push(() => harness.close());
  const sessionId = await harness.newSession(cwd);
  const query = claude.started.at(-1)!;
  const skills = async () => {
    const response = await harness.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "/skills" }],
    });
    return { response, answer: agentText(harness.updates) };
  };
  return { ...harness, query, sessionId, skills };
}

const agentText = (updates: SessionNotification[]) =>
  updates
    .map((n) => n.update)
    .filter((u) => u.sessionUpdate === "agent_message_chunk")
    .map((u) => ({ text: u.content.type === "text" ? u.content.text : "", meta: u._meta }));

describe("/skills", () => {
  it("is offered once among the commands: the agent's entry replaces Claude Code's", async () => {
    const { updates } = await setup();
    await settle();
    const [update] = updates
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "available_commands_update");
    const names = update?.availableCommands.map((c) => c.name) ?? [];
    expect(names.filter((name) => name === "skills")).toEqual(["skills"]);
    expect(names).toContain("greet");
    expect(update?.availableCommands.find((c) => c.name === "skills")?.description).toMatch(
      /skills Claude can use/,
    );
  });

  it("lists each skill as it is typed, with its arguments and what it does, cleaned; Claude Code gets no prompt", async () => {
    const { query, skills } = await setup();
    query.skills = [
      skill("greet", "Greets the user (project)", "[topic]"),
      skill("deploy", "Ships it\u001b[31m now\u202e (user)"),
    ];
    const { response, answer } = await skills();
    expect(response).toMatchObject({ stopReason: "end_turn" });
    expect(answer).toEqual([
      {
        text: "2 skills:\n\n- `/greet` [topic] — Greets the user (project)\n- `/deploy` — Ships it now (user)",
        meta: { claudeCode: { kind: SKILLS_ANSWER_KIND } },
      },
    ]);
    expect(query.sent).toEqual([]);
  });

  it("says where skills come from when there are none", async () => {
    const { skills } = await setup();
    const { answer } = await skills();
    expect(answer[0]?.text).toMatch(/^No skills: .*`\.claude\/skills`/);
  });
});
