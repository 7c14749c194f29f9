import type { ClaudeSessionInfo } from "../../claude/transcripts.js";
import { log } from "../../logger.js";
import { cleanSingleLine } from "../../util/text.js";
import { producedTitle } from "../lifecycle/history.js";

/** When, after a turn, to look for a title Claude Code produced for the conversation. */
export const TITLE_CHECK_DELAYS_MS = [0, 2_000, 5_000, 10_000];
/**
 * Once a title is out, the first look after a turn waits this long instead: a title seldom
 * changes, and reading the transcript (a few ms) then stays off the path of a prompt sent
 * right after the turn, which clears the looks.
 */
export const TITLED_FIRST_LOOK_MS = 500;
/** The longest title made from a prompt, its ellipsis included: a list shows it whole. */
export const PROMPT_TITLE_MAX_CHARS = 60;

/**
 * Whether Claude Code titles its conversations by itself: it does not when its
 * non-essential traffic (the title request among it) is turned off.
 */
export function claudeTitlesItself(env: NodeJS.ProcessEnv): boolean {
  return !env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC;
}

export interface TitleSource {
  /** What the transcript says about the conversation (its title, its first prompt). */
  info(): Promise<ClaudeSessionInfo | undefined>;
  /** Claude Code titles the conversation from its first prompt and saves the title. */
  generate(description: string): Promise<string | undefined>;
  /** Whether Claude Code titles the conversation without being asked. */
  readonly titlesItself: boolean;
}

/**
 * Claude Code writes its title for a conversation on its own time, often just after a
 * turn: the watcher looks at the end of each turn and a few times after, and publishes a
 * title once it exists or changes. A conversation Claude Code does not title gets one
 * generated the way Claude Code does it: at once when Claude Code never titles, at the
 * last look when it could have but did not, and when a session is loaded or resumed.
 * When that gives none, the first prompt makes one.
 */
export class TitleWatcher {
  private published: string | undefined;
  /** A title is generated once per conversation (it is saved, later looks find it). */
  private generated = false;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly source: TitleSource,
    private readonly publish: (title: string, updatedAt: string) => Promise<void>,
  ) {}

  afterTurn(): void {
    this.stop();
    const delays = this.published
      ? [TITLED_FIRST_LOOK_MS, ...TITLE_CHECK_DELAYS_MS.slice(1)]
      : TITLE_CHECK_DELAYS_MS;
    this.timers = delays.map((delay, i) => {
      const last = i === delays.length - 1;
      const timer = setTimeout(() => void this.check(!this.source.titlesItself || last), delay);
      timer.unref();
      return timer;
    });
  }

  /** A loaded or resumed session: its title, generated if the conversation has none. */
  async afterOpen(): Promise<void> {
    await this.check(true);
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
  }

  private async check(generateIfMissing: boolean): Promise<void> {
    try {
      const info = await this.source.info();
      let title = producedTitle(info);
      const description = info?.firstPrompt ?? info?.summary;
      if (!title && generateIfMissing && !this.generated && description) {
        this.generated = true;
        title = await this.generateTitle(description);
      }
      if (!title || title === this.published) return;
      this.published = title;
      await this.publish(title, new Date(info?.lastModified ?? Date.now()).toISOString());
    } catch (error) {
      log.warn("could not publish the session title", error);
    }
  }

  /**
   * Claude Code's title for the first prompt; when it gives none (its request failed, or
   * the model's reply was not the JSON it asks for), one made from the prompt itself. That
   * one is not saved: a saved title counts as the user's /rename, and Claude Code would
   * never title the conversation itself. The same prompt makes it again after a load.
   */
  private async generateTitle(description: string): Promise<string | undefined> {
    let generated: string | undefined;
    try {
      generated = await this.source.generate(description);
    } catch (error) {
      log.warn("Claude Code could not title the conversation", error);
    }
    const title = cleanSingleLine(generated ?? "");
    if (showsSomething(title)) return title;
    log.debug("no title from Claude Code: the first prompt makes one");
    return promptTitle(description);
  }
}

/**
 * Whether a title shows anything: a character that is neither whitespace nor a format
 * character (Unicode Cf: zero-width spaces and joiners, direction marks, U+2060–U+2064, the
 * byte order mark), which a client draws as nothing.
 */
const showsSomething = (text: string) => /[^\s\p{Cf}]/u.test(text);

/** The longest title a client may set (a longer one is cut after a whole word). */
export const TITLE_LIMIT = 200;

/**
 * A title a client sets (`session/set_title`), as it is stored: on one line, cleaned of
 * control characters, cut to TITLE_LIMIT; undefined when nothing visible is left.
 */
export function clientTitle(title: string): string | undefined {
  const line = cleanSingleLine(title).replace(/\s+/g, " ").trim();
  if (!showsSomething(line)) return undefined;
  if (line.length <= TITLE_LIMIT) return line;
  const cut = line.slice(0, TITLE_LIMIT);
  const space = cut.lastIndexOf(" ");
  return (space > TITLE_LIMIT / 2 ? cut.slice(0, space) : cut).trim();
}

/**
 * A title made from a prompt: its first line with text (cleaned to one line), cut after
 * the last whole word that fits in PROMPT_TITLE_MAX_CHARS with an ellipsis. (The first
 * prompt Claude Code's transcript reports has its lines joined already.)
 */
export function promptTitle(prompt: string): string | undefined {
  const line = prompt
    .split(/\r\n?|[\n\u2028\u2029]/)
    .map(cleanSingleLine)
    .find(showsSomething);
  if (!line) return undefined;
  const chars = [...line];
  if (chars.length <= PROMPT_TITLE_MAX_CHARS) return line;
  // The first characters, one more than fit before the ellipsis: a space at the last one
  // means the word before it ends whole. One word that long is cut inside.
  const head = chars.slice(0, PROMPT_TITLE_MAX_CHARS).join("");
  const lastSpace = head.lastIndexOf(" ");
  const words =
    (lastSpace > 0 ? head.slice(0, lastSpace).replace(/[\s,;:]+$/, "") : "") ||
    chars.slice(0, PROMPT_TITLE_MAX_CHARS - 1).join("");
  return `${words}…`;
}
