/**
 * An idle session gives its Claude process back after the idle time (0: never); the next
 * prompt resumes the conversation from its transcript, in the same mode and model.
 */
export class IdleClose {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ms: number,
    /** Runs once the session has been idle `ms`; it checks that nothing runs meanwhile. */
    private readonly close: () => void,
  ) {}

  /** (Re)starts the wait. */
  schedule(): void {
    this.cancel();
    if (this.ms <= 0) return;
    this.timer = setTimeout(this.close, this.ms);
    this.timer.unref();
  }

  /**
   * Holds the wait off while `work` talks to the process (a config change): a close in the
   * middle would fail it. A wait that was running starts again after.
   */
  async around<T>(work: () => Promise<T>): Promise<T> {
    const waiting = this.timer !== undefined;
    this.cancel();
    try {
      return await work();
    } finally {
      if (waiting) this.schedule();
    }
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
