// End-to-end: the model option tells the truth about the model Claude Code runs, with the
// real Claude Code: `/model` typed in the chat moves it.
import { afterEach, expect, it } from "vitest";
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
