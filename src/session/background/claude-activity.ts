/**
 * What Claude Code does on its own, apart from the user's prompts: a turn it started
 * itself (a background subagent's result, a task notification, a wake-up) and the
 * background tasks it keeps running between turns. A user's prompt waits for Claude's
 * own turn to end, so it gets a turn, and a reply, of its own; an idle close waits for
 * the background work to be over.
 */
export class ClaudeActivity {
  private ownTurn = false;
  private tasks = 0;
  private waiters: Array<() => void> = [];

  constructor(
    /** Called when Claude Code has nothing of its own running any more. */
    private readonly onQuiet: () => void,
  ) {}

  /** Claude Code is answering a turn it started itself. */
  get ownTurnRunning(): boolean {
    return this.ownTurn;
  }

  /** Claude Code has its own turn or background tasks running. */
  get busy(): boolean {
    return this.ownTurn || this.tasks > 0;
  }

  ownTurnStarted(): void {
    this.ownTurn = true;
  }

  ownTurnEnded(): void {
    if (!this.ownTurn) return;
    this.ownTurn = false;
    this.waiters.splice(0).forEach((wake) => wake());
    if (!this.busy) this.onQuiet();
  }

  /** The number of background tasks Claude Code reported (`background_tasks_changed`). */
  tasksChanged(count: number): void {
    const wasBusy = this.busy;
    this.tasks = count;
    if (wasBusy && !this.busy) this.onQuiet();
  }

  /** The process ended: nothing of its own runs any more. */
  reset(): void {
    this.tasks = 0;
    this.ownTurnEnded();
  }

  /** Resolves once Claude Code's own turn (if any) has ended, or the signal aborts. */
  untilOwnTurnEnds(signal: AbortSignal): Promise<void> {
    if (!this.ownTurn || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        signal.removeEventListener("abort", done);
        this.waiters = this.waiters.filter((wake) => wake !== done);
        resolve();
      };
      this.waiters.push(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }
}
