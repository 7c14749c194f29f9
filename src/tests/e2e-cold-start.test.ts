// End-to-end, the cold path with the real Claude Code: session/new answers before Claude
// Code has started, a prompt sent at once is answered, the models Claude Code reports
// follow as config_option_update (and the next session offers them at once), and a Claude
// Code that fails to start is reported by a notice and by the first prompt.
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { startE2E, stopAllE2E } from "./support/e2e/index.js";

afterEach(stopAllE2E);

function modelValues(options: readonly SessionConfigOption[] | null | undefined): string[] {
  const model = options?.find((o) => o.id === "model");
  return model?.type === "select" ? model.options.map((o) => ("value" in o ? o.value : "")) : [];
}

describe("the cold path", () => {
  it("a prompt sent the moment session/new answers is answered by the Claude Code still starting", async () => {
    const e2e = await startE2E({ scenario: [{ content: [{ type: "text", text: "Hello." }] }] });
    const { sessionId } = await e2e.newSession();
    expect(await e2e.prompt(sessionId, "Hi.")).toMatchObject({ stopReason: "end_turn" });
    const chunks = e2e.updates.of(sessionId, "agent_message_chunk");
    expect(chunks.map((u) => (u.content.type === "text" ? u.content.text : "")).join("")).toBe(
      "Hello.",
    );
  });

  it("the models Claude Code reports arrive by config_option_update; the next session/new offers them in its response", async () => {
    const e2e = await startE2E();
    const first = await e2e.newSession();
    // Nothing known yet (a fresh HOME): the default model only.
    expect(modelValues(first.configOptions)).toEqual(["default"]);
    const update = await e2e.updates.waitFor(
      first.sessionId,
      "config_option_update",
      (u) => modelValues(u.configOptions).length > 1,
    );
    const reported = modelValues(update.configOptions);
    expect(reported).toContain("default");

    const second = await e2e.newSession();
    expect(modelValues(second.configOptions)).toEqual(reported);
  });
});

describe("a Claude Code that fails to start after session/new answered", () => {
  it("is reported at once by an error notice and by the first prompt, with its reason", async () => {
    // A claude that exists but cannot start.
    const broken = join(mkdtempSync(join(tmpdir(), "acp-broken-claude-")), "claude");
    writeFileSync(broken, "#!/bin/sh\necho 'claude: this install is broken' >&2\nexit 3\n");
    chmodSync(broken, 0o755);
    const agent = await startE2E({
      clientCapabilities: { session: { notices: {} } },
      env: { CLAUDE_CODE_EXECUTABLE: broken },
    });
    const { sessionId } = await agent.newSession();
    const notice = await agent.updates.waitFor(sessionId, "notice");
    expect(notice).toMatchObject({ severity: "error" });
    expect(notice.title).toContain("Claude Code did not start");

    const error = await agent.prompt(sessionId, "Hi.").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    const message = error instanceof Error ? error.message : "";
    expect(message).toContain("Claude Code did not start");
    expect(message).toContain("exit");
  });
});
