// What the client reads of the agent's guess at the next prompt: the first one with something
// to read, as one clean line; an empty list clears it; anything else says nothing of it.
import { describe, expect, it } from "vitest";
import { PromptSuggestion, promptSuggestionOf } from "../../client/prompt-suggestion.js";

describe("promptSuggestionOf", () => {
  it("takes the first suggestion with text, one clean line", () => {
    const meta = (suggestions: unknown) => ({ promptSuggestions: { suggestions } });
    expect(
      promptSuggestionOf(meta([{ text: " \n" }, { text: "run\nthe \u202etests\u0007" }])),
    ).toBe("run the tests");
    expect(promptSuggestionOf(meta([]))).toBeNull();
    expect(promptSuggestionOf(meta([{ text: "  " }, { text: 3 }]))).toBeNull();
    expect(promptSuggestionOf({ other: 1 })).toBeUndefined();
    expect(promptSuggestionOf(undefined)).toBeUndefined();
    expect(promptSuggestionOf({ promptSuggestions: { suggestions: "x" } })).toBeUndefined();
  });

  it("the session's prediction changes only when an update says so, and tells who watches", () => {
    const prediction = new PromptSuggestion();
    let told = 0;
    prediction.watch(() => told++);
    prediction.update({ promptSuggestions: { suggestions: [{ text: "commit" }] } });
    prediction.update({ title: "nothing of it" });
    expect(prediction.current).toBe("commit");
    prediction.update({ promptSuggestions: { suggestions: [] } });
    expect(prediction.current).toBeUndefined();
    expect(told).toBe(2);
  });
});
