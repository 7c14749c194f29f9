import { cleanMultiline } from "../../util/text.js";

/**
 * Claude Code's prediction of the user's next prompt (`prompt_suggestion`, one after a turn's
 * result), for a client that asked for it (acp/prompt-suggestions.ts). Only the prediction
 * that answers the last turn is shown; the next prompt clears it, so a turn that predicts
 * nothing (Claude Code predicts none in plan mode, after an error, or early in a
 * conversation) does not leave an old one in the client's composer.
 */
export class PromptSuggestions {
  /** A user's turn has just been answered: its prediction may come. */
  private expected = false;
  /** What the client shows now. */
  private shown: string | null = null;

  constructor(
    private readonly enabled: boolean,
    /** Sends the suggestion (null: none) to the client. */
    private readonly publish: (text: string | null) => Promise<void>,
  ) {}

  /** A user's turn got its result. */
  turnAnswered(): void {
    if (this.enabled) this.expected = true;
  }

  /** Claude Code predicted the next prompt. Whitespace is no prediction. */
  async suggested(raw: string): Promise<void> {
    if (!this.enabled || !this.expected) return;
    this.expected = false;
    await this.show(cleanMultiline(raw).trim() || null);
  }

  /** The user sent a prompt: the prediction is spent. */
  async promptStarted(): Promise<void> {
    this.expected = false;
    await this.show(null);
  }

  private async show(text: string | null): Promise<void> {
    if (!this.enabled || text === this.shown) return;
    this.shown = text;
    await this.publish(text);
  }
}
