// After a turn the agent asks Claude Code which model it runs and follows it (a `/model` in the
// chat, a fallback). The answer comes back later: a model the client picked meanwhile wins.
import { describe, expect, it } from "vitest";
import type { ModelInfo } from "../../../claude/types.js";
import { SessionConfiguration } from "../../../session/configuration/configuration.js";

const MODELS: ModelInfo[] = [
  { value: "sonnet", displayName: "Sonnet", description: "" },
  { value: "haiku", displayName: "Haiku", description: "" },
];

const done = (): Promise<void> => Promise.resolve();

function configuration(): SessionConfiguration {
  const publish = { modeChanged: done, optionsChanged: done };
  return new SessionConfiguration(
    {
      state: {
        mode: "default",
        model: "sonnet",
        effort: "default",
        fastMode: false,
        thinking: "summarized",
      },
      models: MODELS,
      ownModel: "sonnet",
      autoDisabled: false,
      bypassAllowed: false,
      booleanOptions: false,
      thinkingBudget: 1_000_000,
    },
    publish,
  );
}

const controls = {
  setPermissionMode: done,
  setModel: done,
  applyFlagSettings: done,
  setThinking: done,
  ultracode: () => Promise.resolve(undefined),
};

describe("following Claude Code's model after a turn", () => {
  it("follows a model Claude Code reports when the client picked none meanwhile", async () => {
    const config = configuration();
    await config.followModel({ currentModel: () => Promise.resolve("haiku") });
    expect(config.current.model).toBe("haiku");
  });

  it("a report read before the client picked a model does not undo the client's pick", async () => {
    const config = configuration();
    await config.setOption("model", "haiku", controls);
    let answer!: (model: string) => void;
    const following = config.followModel({
      currentModel: () => new Promise<string>((resolve) => (answer = resolve)),
    });
    const picked = await config.setOption("model", "sonnet", controls);
    answer("haiku");
    await following;
    expect(config.current.model).toBe("sonnet");
    expect(picked.find((o) => o.id === "model")).toMatchObject({ currentValue: "sonnet" });
  });
});
