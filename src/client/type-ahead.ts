// What the user types while a turn runs: the text being typed (shown under the status line),
// the prompts queued for after the turn, and the steers sent into it.
import type { SteeringResponse } from "../acp/steering.js";
import { EMPTY_LINE, lineKey, type Key, type LineState } from "./keys.js";
import { layoutInput } from "./prompt-view.js";
import { oneLine } from "./style.js";
import { errorText } from "./text-limits.js";
import type { SessionView } from "./view/session-view.js";

/** While a turn runs, this key queues the text as the next prompt (Enter steers). */
const QUEUE_KEY = "tab";

export class TypeAhead {
  /** The agent takes steers (`_meta.steering.supported` in its initialize response). */
  steering = false;
  /** What is being typed while a turn runs: kept for the next prompt. */
  private draft: LineState = EMPTY_LINE;
  /** Prompts submitted while a turn ran: each the next turn's prompt, in order. */
  private readonly queued: string[] = [];
  /** The user interrupted the turn: the queued prompts wait for Enter (Esc drops them). */
  private held = false;
  /** Steers not answered yet: one the agent hands back (the turn ended) becomes the next prompt. */
  private readonly steers = new Set<Promise<void>>();

  constructor(
    private readonly view: SessionView,
    /** Sends `_session/steering` with the text. */
    private readonly sendSteer: (text: string) => Promise<SteeringResponse>,
  ) {}

  /**
   * A key that edits the text: Enter steers it into the running turn (queues it, when the
   * agent cannot steer), Tab queues it as the next prompt.
   */
  key(key: Key): void {
    const queue = key.name === QUEUE_KEY && !key.paste;
    const step = queue
      ? { state: this.draft, action: "submit" as const }
      : lineKey(this.draft, key);
    this.draft = step.state;
    if (step.action === "submit") {
      const text = this.draft.text.trim();
      if (text !== "") {
        if (queue || !this.steering) this.queued.push(text);
        else this.trackSteer(this.steer(text));
      }
      this.draft = EMPTY_LINE;
    }
    this.show();
  }

  /** The next queued prompt, once every steer in flight is answered (one may come back); none while held. */
  async next(): Promise<string | undefined> {
    while (this.steers.size > 0) await Promise.all(this.steers);
    return this.held ? undefined : this.queued.shift();
  }

  /** An interrupt holds the queued prompts: none starts on its own after the turn. */
  hold(): void {
    if (this.queued.length > 0) this.held = true;
  }

  /** The prompts held since an interrupt (none when nothing is held). */
  heldPrompts(): readonly string[] {
    return this.held ? this.queued : [];
  }

  /** The held prompts run again, in order, then `then` if given. */
  release(then?: string): void {
    this.held = false;
    if (then !== undefined) this.queued.push(then);
  }

  /** The held prompts are dropped. */
  drop(): void {
    this.held = false;
    this.queued.length = 0;
  }

  /** The text being typed, taken to the prompt, where it is typed on. */
  takeDraft(): string {
    const draft = this.draft.text;
    this.draft = EMPTY_LINE;
    return draft;
  }

  /** The type-ahead under the status line: queued prompts, then the text being typed. */
  show(): void {
    const width = this.view.screen.width;
    const mark = this.held ? "⏸ held" : "⏵ queued";
    const queued = this.queued.map((text) => `${mark}: ${text.replace(/\s+/g, " ")}`);
    const typing =
      this.draft.text === "" ? [] : layoutInput("› ", this.draft, Math.max(8, width - 1)).rows;
    this.view.screen.setDraft([...queued, ...typing]);
  }

  /**
   * Sends `text` into the running turn (`_session/steering`) and says what became of it once
   * the agent answered. If no turn runs (it has just ended), the agent hands it back
   * (`promptRequired`) and it becomes the next prompt; so does a steer the agent refuses.
   */
  private async steer(text: string): Promise<void> {
    const line = `› ${oneLine(text)}`;
    try {
      const response = await this.sendSteer(text);
      if (response.outcome !== "promptRequired") {
        this.view.note(`${line} (sent to the running turn)`);
        return;
      }
      this.view.note(`${line} (no turn was running: queued as the next prompt)`);
    } catch (error) {
      this.view.note(`Could not steer the turn (${errorText(error)}): queued as the next prompt.`);
    }
    this.queued.push(text);
    this.show();
  }

  private trackSteer(steer: Promise<void>): void {
    this.steers.add(steer);
    void steer.finally(() => this.steers.delete(steer));
  }
}
