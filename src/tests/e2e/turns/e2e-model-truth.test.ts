// End-to-end: the model option tells the truth about the model Claude Code runs, with the
// real Claude Code: the model its environment and settings choose is shown from session/new
// on, a model the client picks gets the requests, and `/model` typed in the chat moves it.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { RequestError, type SessionConfigOption } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { controlStrings, HOSTILE_TEXT } from "../../support/control-characters.js";
import { startE2E, stopAllE2E, type E2E } from "../../support/e2e/index.js";
import { bodyOf, claudeCodeGone, setConfigOption } from "../../support/e2e-turns/index.js";

afterEach(stopAllE2E);

it("/model <name> in the chat sends config_option_update naming the new model, and only then", async () => {
  const e2e = await startE2E({ scenario: [{ content: [{ type: "text", text: "Hello." }] }] });
  const { sessionId } = await e2e.newSession();

  expect(await e2e.prompt(sessionId, "Hi.")).toMatchObject({ stopReason: "end_turn" });
  // At most the models Claude Code reported at its start (session/new answered before).
  const atStart = e2e.updates.of(sessionId, "config_option_update").length;
  expect(atStart).toBeLessThanOrEqual(1);

  expect(await e2e.prompt(sessionId, "/model haiku")).toMatchObject({ stopReason: "end_turn" });
  const updates = e2e.updates.of(sessionId, "config_option_update");
  expect(updates).toHaveLength(atStart + 1);
  const model = updates.at(-1)?.configOptions.find((option) => option.id === "model");
  expect(model).toMatchObject({ currentValue: "haiku" });
});

it("/model with an escape sequence, U+202E or a 5,000-character id is refused with invalid params, and nothing of it is echoed", async () => {
  const { CSI, OSC_TITLE, RLO } = HOSTILE_TEXT;
  const e2e = await startE2E({ scenario: [{ content: [{ type: "text", text: "Hello." }] }] });
  const { sessionId } = await e2e.newSession();
  expect(await e2e.prompt(sessionId, "Hi.")).toMatchObject({ stopReason: "end_turn" });
  const requests = e2e.api.requests.length;

  for (const value of [`haiku${CSI}`, `opus${OSC_TITLE}`, `son${RLO}net`, "h".repeat(5_000)]) {
    const error = await e2e.prompt(sessionId, `/model ${value}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ code: -32602 });
  }

  const fromAgent = e2e.transcript.entries.filter((e) => e.direction === "from-agent");
  expect(controlStrings(fromAgent.map((e) => e.message))).toEqual([]);
  expect(fromAgent.filter((e) => e.raw.includes("h".repeat(201)))).toEqual([]);
  expect(e2e.api.requests.length).toBe(requests);
  // The session goes on, and a model id still switches the model.
  expect(await e2e.prompt(sessionId, "/model haiku")).toMatchObject({ stopReason: "end_turn" });
  const model = e2e.updates
    .of(sessionId, "config_option_update")
    .at(-1)
    ?.configOptions.find((option) => option.id === "model");
  expect(model).toMatchObject({ currentValue: "haiku" });
});

const modelOption = (options: readonly SessionConfigOption[] | null | undefined) =>
  options?.find((option) => option.id === "model");

const offered = (option: SessionConfigOption | undefined) =>
  option?.type === "select" ? option.options.map((o) => ("value" in o ? o.value : "")) : [];

/** The model option as the client last heard it: session/new's, or a later update's. */
function shownModel(
  e2e: E2E,
  sessionId: string,
  atNew: readonly SessionConfigOption[] | null | undefined,
) {
  const updates = e2e.updates.of(sessionId, "config_option_update");
  return modelOption(updates.at(-1)?.configOptions ?? atNew);
}

/** The model the last prompt's main-loop request went to. */
const requestedModel = (e2e: E2E) => bodyOf(e2e.api.lastMainRequest()).model;

async function writeProjectSettings(e2e: E2E, settings: unknown): Promise<void> {
  await mkdir(join(e2e.cwd, ".claude"), { recursive: true });
  await writeFile(join(e2e.cwd, ".claude", "settings.json"), JSON.stringify(settings));
}

describe("the model option shows the model Claude Code runs without being told one", () => {
  const SONNET_4_5 = "claude-sonnet-4-5-20250929";

  it("with ANTHROPIC_MODEL set, session/new shows that model and the prompt goes to it; a model the client picks then gets the next request, and so does the first again", async () => {
    const e2e = await startE2E({ env: { ANTHROPIC_MODEL: SONNET_4_5 } });
    const { sessionId, configOptions } = await e2e.newSession();
    expect(modelOption(configOptions)).toMatchObject({ currentValue: SONNET_4_5 });

    await e2e.prompt(sessionId, "Hi.");
    expect(requestedModel(e2e)).toBe(SONNET_4_5);
    expect(shownModel(e2e, sessionId, configOptions)).toMatchObject({ currentValue: SONNET_4_5 });

    const picked = await setConfigOption(e2e, sessionId, "model", "haiku");
    expect(modelOption(picked)).toMatchObject({ currentValue: "haiku" });
    expect(offered(modelOption(picked))).toContain(SONNET_4_5);
    await e2e.prompt(sessionId, "Again.");
    expect(requestedModel(e2e)).toEqual(expect.stringContaining("haiku"));

    await setConfigOption(e2e, sessionId, "model", SONNET_4_5);
    await e2e.prompt(sessionId, "Once more.");
    expect(requestedModel(e2e)).toBe(SONNET_4_5);
  });

  it("an alias Claude Code does not list (sonnet[1m]) in ANTHROPIC_MODEL is shown, and stays offered: switching away and back works", async () => {
    const e2e = await startE2E({ env: { ANTHROPIC_MODEL: "sonnet[1m]" } });
    const { sessionId, configOptions } = await e2e.newSession();
    expect(modelOption(configOptions)).toMatchObject({ currentValue: "sonnet[1m]" });
    const started = await e2e.updates.waitFor(sessionId, "config_option_update");
    expect(modelOption(started.configOptions)).toMatchObject({ currentValue: "sonnet[1m]" });
    expect(offered(modelOption(started.configOptions))).toContain("sonnet[1m]");
    await e2e.prompt(sessionId, "Hi.");
    const own = requestedModel(e2e);
    expect(own).toEqual(expect.stringContaining("sonnet"));

    const picked = await setConfigOption(e2e, sessionId, "model", "haiku");
    expect(offered(modelOption(picked))).toContain("sonnet[1m]");
    await e2e.prompt(sessionId, "Again.");
    expect(requestedModel(e2e)).toEqual(expect.stringContaining("haiku"));

    const back = await setConfigOption(e2e, sessionId, "model", "sonnet[1m]");
    expect(modelOption(back)).toMatchObject({ currentValue: "sonnet[1m]" });
    await e2e.prompt(sessionId, "Once more.");
    expect(requestedModel(e2e)).toBe(own);
  });

  it("a project settings file's env.ANTHROPIC_MODEL wins over the agent's own ANTHROPIC_MODEL, as Claude Code applies it", async () => {
    const e2e = await startE2E({ env: { ANTHROPIC_MODEL: "haiku" } });
    await writeProjectSettings(e2e, { env: { ANTHROPIC_MODEL: SONNET_4_5 } });
    const { sessionId, configOptions } = await e2e.newSession();
    expect(modelOption(configOptions)).toMatchObject({ currentValue: SONNET_4_5 });
    await e2e.prompt(sessionId, "Hi.");
    expect(requestedModel(e2e)).toBe(SONNET_4_5);
    expect(shownModel(e2e, sessionId, configOptions)).toMatchObject({ currentValue: SONNET_4_5 });
  });

  it("ANTHROPIC_MODEL wins over a settings file's model", async () => {
    const e2e = await startE2E({ env: { ANTHROPIC_MODEL: SONNET_4_5 } });
    await writeProjectSettings(e2e, { model: "haiku" });
    const { sessionId, configOptions } = await e2e.newSession();
    expect(modelOption(configOptions)).toMatchObject({ currentValue: SONNET_4_5 });
    await e2e.prompt(sessionId, "Hi.");
    expect(requestedModel(e2e)).toBe(SONNET_4_5);
    expect(shownModel(e2e, sessionId, configOptions)).toMatchObject({ currentValue: SONNET_4_5 });
  });

  it("default picked while ANTHROPIC_MODEL is set is Claude Code's default model, also after its process was closed and restarted", async () => {
    const e2e = await startE2E({
      env: { ANTHROPIC_MODEL: "haiku", CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS: "300" },
    });
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Hi.");
    const own = requestedModel(e2e);
    expect(own).toEqual(expect.stringContaining("haiku"));

    await setConfigOption(e2e, sessionId, "model", "default");
    await e2e.prompt(sessionId, "Again.");
    const byDefault = requestedModel(e2e);
    expect(byDefault).not.toBe(own);

    expect(await claudeCodeGone(e2e)).toBe(true);
    await e2e.prompt(sessionId, "After the restart.");
    expect(requestedModel(e2e)).toBe(byDefault);
  });
});
