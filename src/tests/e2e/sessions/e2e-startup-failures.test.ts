// End-to-end on the real Claude Code: when it cannot start, it says why in a result
// (`startup_failure_reason`, every cause it knows, as the agent asks for them), and the
// prompt fails with that reason, never with "Claude Code exited unexpectedly".
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startE2E, stopAllE2E } from "../../support/e2e/index.js";
import {
  failure,
  INTERNAL_ERROR,
  processEnds,
  RESOURCE_NOT_FOUND,
  signalClaude,
  transcriptFile,
} from "../../support/e2e-sessions/index.js";

afterEach(stopAllE2E);

describe("a Claude Code that cannot start says why", () => {
  it("a global config that does not parse: the prompt's error carries the reason and the file, and the next prompt, once it is fixed, is answered", async () => {
    const e2e = await startE2E();
    const config = join(e2e.home, ".claude", ".claude.json");
    const valid = await readFile(config, "utf8").catch(() => "{}");
    await writeFile(config, "{not json");
    const { sessionId } = await e2e.newSession();

    const error = await failure(e2e.prompt(sessionId, "Hello."));
    expect(error.code).toBe(INTERNAL_ERROR);
    expect(error.message).toMatch(/Claude Code did not start: Configuration error in /);
    expect(error.message).not.toMatch(/exited unexpectedly/);
    expect(error.data).toMatchObject({
      startupFailureReason: "config_file_invalid",
      invalidConfigFile: { path: config, is_global: true },
    });

    await writeFile(config, valid);
    expect(await e2e.prompt(sessionId, "Hello again.")).toMatchObject({ stopReason: "end_turn" });
  });

  it("a conversation to resume that Claude Code no longer has is a session not found", async () => {
    const e2e = await startE2E();
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Hello.");
    const saved = await transcriptFile(join(e2e.home, ".claude"), sessionId);
    expect(saved).toBeDefined();
    // Its process ends, and its transcript goes: the next prompt resumes what is not there.
    expect(await processEnds(e2e, await signalClaude(e2e, sessionId, "SIGKILL"))).toBe(true);
    await rm(saved!);

    const error = await failure(e2e.prompt(sessionId, "Again."));
    expect(error.code).toBe(RESOURCE_NOT_FOUND);
    expect(error.data).toEqual({ sessionId });
  });
});
