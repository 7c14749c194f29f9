// End-to-end: `/usage` for a subscriber whose login can read the plan from claude.ai. Claude
// Code asks https://api.anthropic.com/api/oauth/usage whatever ANTHROPIC_BASE_URL says; the
// scripted account API answers it through an HTTPS proxy Claude Code is told to trust, and
// refuses every other host. The reply lists the plan's windows in Claude Code's words.
import { afterEach, describe, expect, it } from "vitest";
import { startAccountApi, type AccountApi } from "../../../scripted-api/index.js";
import { startE2E, stopAllE2E } from "../../support/e2e/index.js";

let account: AccountApi | undefined;
afterEach(async () => {
  await stopAllE2E();
  await account?.close();
  account = undefined;
});

describe("/usage", () => {
  it("signed in with a subscription that can read its plan: the reply lists each window's use and reset, as Claude Code's own /usage", async () => {
    const resetsAt = new Date(Date.now() + 3 * 3600_000);
    account = await startAccountApi({
      usage: {
        fiveHour: { utilization: 42, resetsAt },
        sevenDay: { utilization: 13, resetsAt },
      },
    });
    const e2e = await startE2E({
      scenario: [{ content: [{ type: "text", text: "Hi." }] }],
      env: account.env("test-oauth-token"),
    });
    const { sessionId } = await e2e.newSession();
    expect(await e2e.prompt(sessionId, "Hello.")).toMatchObject({ stopReason: "end_turn" });
    // The model's requests still reach the scripted API, not the proxy.
    expect(e2e.api.mainRequests()).toHaveLength(1);

    const before = e2e.updates.of(sessionId, "agent_message_chunk").length;
    expect(await e2e.prompt(sessionId, "/usage")).toMatchObject({ stopReason: "end_turn" });
    const text = e2e.updates
      .of(sessionId, "agent_message_chunk")
      .slice(before)
      .map((c) => (c.content.type === "text" ? c.content.text : ""))
      .join("");
    expect(text).toMatch(/^You are currently using your subscription/);
    expect(text).toMatch(/\nCurrent session: 42% used · resets .+ \(.+\)\n/);
    expect(text).toMatch(/\nCurrent week \(all models\): 13% used · resets .+ \(.+\)$/);
    // Claude Code listed the windows itself: nothing is added from the replies' headers.
    expect(text).not.toContain("Plan limits, as the last replies reported them");
    expect(account.requests).toContain("GET /api/oauth/usage");
  });
});
