// In process: the options of a client's that the session itself applies (permission mode,
// effort, model, environment), and the notice naming what it does not apply.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type SessionNotification } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelInfo } from "../../claude/types.js";
import { fakeClaude } from "../support/fake-claude.js";
import { connectInProcess, isolatedEnv } from "../support/in-process.js";

const MODELS: ModelInfo[] = [
  {
    value: "default",
    resolvedModel: "claude-opus-5-5",
    displayName: "Default",
    description: "Opus",
    supportsEffort: true,
    supportedEffortLevels: ["low", "medium", "high"],
    supportsAutoMode: true,
  },
  { value: "haiku", resolvedModel: "claude-haiku-5-5", displayName: "Haiku", description: "Haiku" },
];

let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

async function open(options: Record<string, unknown>, env = isolatedEnv({ IS_SANDBOX: "1" })) {
  const claude = fakeClaude({ models: MODELS });
  const harness = await connectInProcess({ startQuery: claude.startQuery, env });
  cleanup.push(() => harness.close());
  const cwd = mkdtempSync(join(tmpdir(), "acp-client-setup-"));
  const response = await harness.agent.request(methods.agent.session.new, {
    cwd,
    mcpServers: [],
    _meta: { claudeCode: { options } },
  });
  return { ...harness, claude, response, query: claude.started.at(-1)! };
}

/** The notices of what the session did not apply (an agent message here: no notices signal). */
async function ignoredNotices(updates: SessionNotification[]): Promise<SessionNotification[]> {
  const mine = () =>
    updates.filter(
      (n) =>
        (n.update._meta?.claudeCode as { kind?: string } | undefined)?.kind === "options_ignored",
    );
  for (let i = 0; i < 200 && mine().length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return mine();
}

describe("what the session applies of a client's options", () => {
  it("permissionMode: a mode the session offers is the mode it starts in, and Claude Code's", async () => {
    const { response, query } = await open({ permissionMode: "plan" });
    expect(response.modes?.currentModeId).toBe("plan");
    expect(query.options.permissionMode).toBe("plan");
  });

  it("permissionMode: a mode the session does not offer (dontAsk) is not applied, and one notice says why", async () => {
    const { response, query, updates } = await open({ permissionMode: "dontAsk" });
    expect(response.modes?.currentModeId).toBe("default");
    expect(query.options.permissionMode).toBe("default");
    const notices = await ignoredNotices(updates);
    expect(notices).toHaveLength(1);
    expect(JSON.stringify(notices[0]?.update)).toContain(
      "permissionMode: the session does not offer this permission mode",
    );
  });

  it("effort: the effort option starts there, and Claude Code gets it as its effort level", async () => {
    const { query, updates } = await open({ effort: "high" });
    expect(query.options.flagSettings).toMatchObject({ effortLevel: "high" });
    // The effort option comes once Claude Code has reported its models.
    const effort = async () => {
      for (let i = 0; i < 200; i++) {
        for (const { update } of updates) {
          if (update.sessionUpdate !== "config_option_update") continue;
          const found = update.configOptions.find((o) => o.id === "effort");
          if (found) return found;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return undefined;
    };
    expect(await effort()).toMatchObject({ currentValue: "high" });
  });

  it("model: a model id is the model option's value and Claude Code's model; anything else is not applied", async () => {
    const { response, query } = await open({ model: "haiku" });
    expect(response.configOptions?.find((o) => o.id === "model")).toMatchObject({
      currentValue: "haiku",
    });
    expect(query.options.model).toBe("haiku");

    const bad = await open({ model: "haiku\u001b[2J" });
    expect(bad.query.options.model).toBeUndefined();
    expect(JSON.stringify((await ignoredNotices(bad.updates))[0]?.update)).toContain(
      "model: its value is not valid",
    );
  });

  it("env: its ANTHROPIC_MODEL is the model the option shows, and it reaches Claude Code's environment", async () => {
    const { response, query } = await open({ env: { ANTHROPIC_MODEL: "haiku" } });
    expect(response.configOptions?.find((o) => o.id === "model")).toMatchObject({
      currentValue: "haiku",
    });
    expect(query.options.env.ANTHROPIC_MODEL).toBe("haiku");
  });
});
