// End-to-end: the model option tells the truth about the model Claude Code runs, with the
// real Claude Code: `/model` typed in the chat moves it.
import { RequestError } from "@agentclientprotocol/sdk";
import { afterEach, expect, it } from "vitest";
import { controlStrings, HOSTILE_TEXT } from "./support/control-characters.js";
import { startE2E, stopAllE2E } from "./support/e2e/index.js";

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
