import type { ClaudeSessionInfo } from "../claude/transcripts.js";
import { log } from "../logger.js";
import { producedTitle } from "./history.js";

/** When, after a turn, to look for a title Claude Code produced for the conversation. */
export const TITLE_CHECK_DELAYS_MS = [0, 2_000, 5_000, 10_000];

/**
 * Claude Code writes its title for a conversation on its own time, often just after a
 * turn: the watcher looks at the end of each turn and a few times after, and publishes a
 * title once it exists or changes.
 */
export class TitleWatcher {
  private published: string | undefined;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly info: () => Promise<ClaudeSessionInfo | undefined>,
    private readonly publish: (title: string, updatedAt: string) => Promise<void>,
  ) {}

  afterTurn(): void {
    this.stop();
    this.timers = TITLE_CHECK_DELAYS_MS.map((delay) => {
      const timer = setTimeout(() => void this.check(), delay);
      timer.unref();
      return timer;
    });
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
  }

  private async check(): Promise<void> {
    try {
      const info = await this.info();
      const title = producedTitle(info);
      if (!title || title === this.published) return;
      this.published = title;
      await this.publish(title, new Date(info?.lastModified ?? Date.now()).toISOString());
    } catch (error) {
      log.warn("could not publish the session title", error);
    }
  }
}
