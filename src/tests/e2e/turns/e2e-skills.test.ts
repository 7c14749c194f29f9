// End-to-end on the real Claude Code: a project's skills are offered as commands with their
// arguments and descriptions, a skill written while the session is open joins them, `/skills`
// lists them (the agent answers it), and running one works as in Claude Code's terminal.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startE2E, stopAllE2E } from "../../support/e2e/index.js";
import { chunkText, messagesOf } from "../../support/e2e-turns/index.js";

afterEach(stopAllE2E);

async function writeSkill(cwd: string, name: string, description: string): Promise<void> {
  const dir = join(cwd, ".claude", "skills", name);
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${description}\nargument-hint: "[topic]"\n---\nSay hello about $ARGUMENTS, as ${name}.\n`,
  );
}

describe("skills", () => {
  it("are commands with their hints, /skills lists them read again from disk (one written while the session is open too), and one runs", async () => {
    // The folder is trusted: its skills load as Claude Code loads them in a terminal.
    const e2e = await startE2E({ env: { CLAUDE_AGENT_ACP_TRUST_ALL_FOLDERS: "1" } });
    await writeSkill(e2e.cwd, "greet", "Greets the user");
    const { sessionId } = await e2e.newSession();
    const first = await e2e.updates.waitFor(sessionId, "available_commands_update", (u) =>
      u.availableCommands.some((c) => c.name === "greet"),
    );
    expect(first.availableCommands.find((c) => c.name === "greet")).toEqual({
      name: "greet",
      description: "Greets the user (project)",
      input: { hint: "[topic]" },
    });

    // Written while the session is open: `/skills` reads the skills again from disk. (Claude
    // Code's own watcher also reports it, by a commands update, but not in bounded time on a
    // loaded machine.)
    await writeSkill(e2e.cwd, "wave", "Waves at the user");

    expect(await e2e.prompt(sessionId, "/skills")).toMatchObject({ stopReason: "end_turn" });
    const listed = chunkText(e2e, sessionId, "agent_message_chunk");
    expect(listed).toContain("- `/greet` [topic] — Greets the user (project)");
    expect(listed).toContain("- `/wave` [topic] — Waves at the user (project)");
    expect(e2e.api.mainRequests()).toHaveLength(0);

    expect(await e2e.prompt(sessionId, "/greet the team")).toMatchObject({
      stopReason: "end_turn",
    });
    const sent = JSON.stringify(messagesOf(e2e.api.lastMainRequest()));
    expect(sent).toContain("Say hello about the team, as greet.");
  });
});
