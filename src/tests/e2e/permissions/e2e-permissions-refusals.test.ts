// End-to-end, the permission contract's refusals (permission-extension.md, "Cancellation
// and failures", design.md "Reject with feedback"): the built agent, the real Claude Code
// and the scripted API. Whatever the client answers short of an offered allow, nothing
// runs, and the model is told why. (e2e-foundation covers a plain reject of a redirect and
// cancellation timing for each kind of unanswering client; these extend it.)
import { afterEach, describe, expect, it } from "vitest";
import { lastToolResults, lastUserText } from "../../../scripted-api/index.js";
import { UNKNOWN_OPTION, USER_REJECTED } from "../../../permissions/messages.js";
import {
  localSettings,
  npmTestRuns,
  PACKAGE_JSON,
  textTurn,
  toolTurn,
  writeFiles,
} from "../../support/audit/project.js";
import {
  type E2E,
  type PermissionPolicy,
  shareAgents,
  sleep,
  startE2E,
  stopAllE2E,
  timed,
} from "../../support/e2e/index.js";

afterEach(stopAllE2E);
shareAgents();

const NPM_TEST = toolTurn("toolu_npm", "Bash", { command: "npm test" });

/** A session in a project whose `npm test` leaves a trace, with the model asking to run it. */
async function npmTestSession(permission: PermissionPolicy) {
  const e2e = await startE2E({ scenario: [NPM_TEST, textTurn("Understood.")], permission });
  await writeFiles(e2e.cwd, { "package.json": PACKAGE_JSON });
  const { sessionId } = await e2e.newSession();
  return { e2e, sessionId };
}

/** The tool result the model got for the npm test call. */
function npmTestResult(e2e: E2E) {
  for (const request of e2e.api.mainRequests()) {
    const found = lastToolResults(request).find((r) => r.tool_use_id === "toolu_npm");
    if (found) return found;
  }
  return undefined;
}

describe("a refused npm test", () => {
  it("reject: the command does not run and the model gets an error result with the refusal text", async () => {
    const { e2e, sessionId } = await npmTestSession({ answer: "select", optionId: "reject" });

    expect(await e2e.prompt(sessionId, "Run the tests.")).toMatchObject({ stopReason: "end_turn" });

    expect(e2e.permissions.records).toHaveLength(1);
    expect(await npmTestRuns(e2e.cwd)).toBe(0);
    expect(npmTestResult(e2e)).toMatchObject({ is_error: true, text: USER_REJECTED });
    expect(await localSettings(e2e.cwd)).toBeUndefined();
  });

  it("reject with _meta.permission.feedback: the command does not run and the model's tool result carries the feedback", async () => {
    const feedback = "Use the fast test suite instead: npm run test:fast.";
    const { e2e, sessionId } = await npmTestSession({
      answer: "select",
      optionId: "reject",
      meta: { permission: { feedback } },
    });

    expect(await e2e.prompt(sessionId, "Run the tests.")).toMatchObject({ stopReason: "end_turn" });

    expect(await npmTestRuns(e2e.cwd)).toBe(0);
    const result = npmTestResult(e2e);
    expect(result?.is_error).toBe(true);
    expect(result?.text).toContain(feedback);
    expect(result?.text).toContain("the user said:");
    // Feedback replaces the "STOP and wait" instruction: the user said how to proceed.
    expect(result?.text).not.toContain("STOP what you are doing");
  });

  it("a forged option id (never offered) does not run the command and is not mistaken for an allow", async () => {
    const { e2e, sessionId } = await npmTestSession({
      answer: "select",
      optionId: "allow-always-forever",
    });

    expect(await e2e.prompt(sessionId, "Run the tests.")).toMatchObject({ stopReason: "end_turn" });

    const offered = e2e.permissions.records[0]?.request.options.map((o) => o.optionId);
    expect(offered).not.toContain("allow-always-forever");
    expect(await npmTestRuns(e2e.cwd)).toBe(0);
    expect(npmTestResult(e2e)).toMatchObject({ is_error: true, text: UNKNOWN_OPTION });
    expect(await localSettings(e2e.cwd)).toBeUndefined();
  });
});

describe("an unanswered request and session/cancel", () => {
  it("ends the turn cancelled within 2 s, the tool call ends failed, the command never runs, and the session goes on", async () => {
    const e2e = await startE2E({
      scenario: [NPM_TEST, textTurn("Back again.")],
      permission: { answer: "never" },
    });
    await writeFiles(e2e.cwd, { "package.json": PACKAGE_JSON });
    const { sessionId } = await e2e.newSession();
    const prompt = e2e.prompt(sessionId, "Run the tests.");
    await e2e.permissions.waitForRequest();

    await e2e.cancel(sessionId);
    const { value: response, ms } = await timed(prompt);

    expect(response.stopReason).toBe("cancelled");
    expect(ms).toBeLessThan(2_000);
    // The client is not left with a pending tool call.
    const statuses = e2e.updates
      .of(sessionId, "tool_call_update")
      .filter((u) => u.toolCallId === "toolu_npm" && u.status)
      .map((u) => u.status);
    expect(statuses).toEqual(["failed"]);

    // The next prompt is served; Claude Code tells the model the last one was interrupted.
    expect(await e2e.prompt(sessionId, "Never mind.")).toMatchObject({ stopReason: "end_turn" });
    expect(lastUserText(e2e.api.lastMainRequest()!)).toContain("Never mind.");
    expect(JSON.stringify(e2e.api.lastMainRequest()?.body)).toContain(
      "[Request interrupted by user",
    );
    expect(e2e.permissions.records).toHaveLength(1);
    await sleep(300);
    expect(await npmTestRuns(e2e.cwd)).toBe(0);
  });
});
