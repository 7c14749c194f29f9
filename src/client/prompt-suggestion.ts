// The agent's prediction of the user's next prompt (`session_info_update._meta.promptSuggestions`,
// the shape the published Claude Code adapter sends): shown dim under an empty prompt, Tab takes it.
import { oneLine } from "./style.js";
import { cutField } from "./text-limits.js";

/** What the client declares in `initialize` to be sent predictions. */
export const PROMPT_SUGGESTIONS_CAPABILITY = { claudeCode: { promptSuggestions: true } };

/**
 * The prediction an update carries: its first suggestion with something to read, one line
 * and cut; null when it clears the prediction; undefined when it says nothing of one.
 */
export function promptSuggestionOf(meta: unknown): string | null | undefined {
  if (typeof meta !== "object" || meta === null) return undefined;
  const value = (meta as Record<string, unknown>).promptSuggestions;
  if (typeof value !== "object" || value === null) return undefined;
  const suggestions = (value as Record<string, unknown>).suggestions;
  if (!Array.isArray(suggestions)) return undefined;
  for (const suggestion of suggestions) {
    const text = (suggestion as Record<string, unknown> | null)?.text;
    if (typeof text !== "string") continue;
    const shown = oneLine(cutField(text)).trim();
    if (shown) return shown;
  }
  return null;
}

/** The prediction as the prompt reads it: now, and as it changes while the prompt is open. */
export interface SuggestionSource {
  readonly current: string | undefined;
  /** Calls `listener` when the prediction changes; returns the way to stop. */
  watch(listener: () => void): () => void;
}

/** The session's latest prediction, set from the updates that carry one. */
export class PromptSuggestion implements SuggestionSource {
  current: string | undefined;
  private readonly listeners = new Set<() => void>();

  /** From an update's `_meta`: a prediction, a clear, or nothing said. */
  update(meta: unknown): void {
    const said = promptSuggestionOf(meta);
    if (said === undefined || (said ?? undefined) === this.current) return;
    this.current = said ?? undefined;
    for (const listener of this.listeners) listener();
  }

  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
