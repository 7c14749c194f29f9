import { afterEach, describe, expect, it } from "vitest";
import { shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

const asRoot = process.getuid?.() === 0;

// Devcontainers and CI run as root, often with IS_SANDBOX set to something other than "1".
describe.runIf(asRoot)("as root, end to end with the real Claude Code", () => {
  it("with IS_SANDBOX=yes a session starts without Bypass permissions and completes a turn", async () => {
    const e2e = await startE2E({ env: { IS_SANDBOX: "yes" } });

    const { sessionId, modes } = await e2e.newSession();

    expect(modes?.availableModes.map((m) => m.id)).not.toContain("bypassPermissions");
    expect(await e2e.prompt(sessionId, "Hello")).toMatchObject({ stopReason: "end_turn" });
    expect(e2e.api.requests.length).toBeGreaterThan(0);
  });

  it("with IS_SANDBOX=1 the session offers Bypass permissions", async () => {
    const e2e = await startE2E({ env: { IS_SANDBOX: "1" } });

    const { modes } = await e2e.newSession();

    expect(modes?.availableModes.map((m) => m.id)).toContain("bypassPermissions");
  });
});
