// End-to-end on the real Claude Code (issue 51 item 1): the thinking option changes what the
// next request asks of the API. Hidden drops the summary, Off sends no thinking where the
// model can go without it, and Shown turns thinking on again, also after an Off start and
// after the session's Claude Code was closed and started again.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { shareAgents, startE2E, stopAllE2E, type E2E } from "../../support/e2e/index.js";
import { bodyOf, claudeCodeGone, setConfigOption } from "../../support/e2e-turns/index.js";

afterEach(stopAllE2E);
shareAgents();

/** A model Claude Code 2.1.336 can run without thinking (thinking.ts). */
const SONNET_4_5 = "claude-sonnet-4-5";

/** Closes an idle Claude Code soon, so that a test can see the session start another. */
const SONNET_CLOSED_SOON = { ANTHROPIC_MODEL: SONNET_4_5, CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS: "300" };

/** The thinking the last main-loop request asked for. */
const askedThinking = (e2e: E2E) => bodyOf(e2e.api.lastMainRequest()).thinking;

it("Hidden on a model of Claude Code's own list asks for thinking without its summary; Shown asks for the summary again", async () => {
  const e2e = await startE2E();
  const { sessionId } = await e2e.newSession();
  await setConfigOption(e2e, sessionId, "thinking", "omitted");
  await e2e.prompt(sessionId, "Think quietly.");
  expect(askedThinking(e2e)).toMatchObject({ type: "adaptive" });
  expect(askedThinking(e2e)).not.toMatchObject({ display: "summarized" });
  await setConfigOption(e2e, sessionId, "thinking", "summarized");
  await e2e.prompt(sessionId, "Think aloud.");
  expect(askedThinking(e2e)).toEqual({ type: "adaptive", display: "summarized" });
});

it("Off on a model that can go without thinking sends none, and stays off after the session's Claude Code was closed and started again; Shown turns it on", async () => {
  const e2e = await startE2E({ env: SONNET_CLOSED_SOON });
  const { sessionId } = await e2e.newSession();
  await setConfigOption(e2e, sessionId, "thinking", "off");
  await e2e.prompt(sessionId, "No thinking.");
  expect(askedThinking(e2e)).toEqual({ type: "disabled" });

  expect(await claudeCodeGone(e2e)).toBe(true);
  await e2e.prompt(sessionId, "Still none.");
  expect(askedThinking(e2e)).toEqual({ type: "disabled" });

  await setConfigOption(e2e, sessionId, "thinking", "summarized");
  await e2e.prompt(sessionId, "Think again.");
  expect(askedThinking(e2e)).toMatchObject({ type: "enabled", display: "summarized" });
});

it("MAX_THINKING_TOKENS=0 starts Off, and Shown turns thinking on in that Claude Code, which its own reset would not", async () => {
  const e2e = await startE2E({ env: { ANTHROPIC_MODEL: SONNET_4_5, MAX_THINKING_TOKENS: "0" } });
  const { sessionId, configOptions } = await e2e.newSession();
  expect(configOptions?.find((o) => o.id === "thinking")).toMatchObject({ currentValue: "off" });
  await e2e.prompt(sessionId, "No thinking.");
  expect(askedThinking(e2e)).toEqual({ type: "disabled" });
  await setConfigOption(e2e, sessionId, "thinking", "summarized");
  await e2e.prompt(sessionId, "Think.");
  expect(askedThinking(e2e)).toMatchObject({ type: "enabled", display: "summarized" });
});

it("alwaysThinkingEnabled false in the project's settings shows Off once Claude Code has started, as it runs; Shown turns thinking on", async () => {
  const e2e = await startE2E({ env: SONNET_CLOSED_SOON });
  await mkdir(join(e2e.cwd, ".claude"), { recursive: true });
  await writeFile(
    join(e2e.cwd, ".claude", "settings.json"),
    JSON.stringify({ alwaysThinkingEnabled: false }),
  );
  const { sessionId } = await e2e.newSession();
  await e2e.prompt(sessionId, "No thinking.");
  expect(askedThinking(e2e)).toEqual({ type: "disabled" });
  const shown = e2e.updates.of(sessionId, "config_option_update").at(-1)?.configOptions;
  expect(shown?.find((o) => o.id === "thinking")).toMatchObject({ currentValue: "off" });
  await setConfigOption(e2e, sessionId, "thinking", "summarized");
  await e2e.prompt(sessionId, "Think.");
  expect(askedThinking(e2e)).toMatchObject({ type: "enabled", display: "summarized" });
});
