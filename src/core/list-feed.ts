import type { ClaudeTranscripts, TranscriptWatch } from "../claude/transcripts.js";
import { InvalidParamsError } from "../errors.js";
import { log } from "../logger.js";
import { isOneOf, requireDirectory } from "../session/configuration/directories.js";
import {
  listedDirs,
  listedRow,
  type ListedSession,
  type OpenState,
} from "../session/lifecycle/history.js";

/** What changed in a directory's listing since the subscriber last heard. */
export interface ListChanges {
  /** Rows new to the subscriber, or changed in more than their `updatedAt`. */
  sessions: ListedSession[];
  /** Sessions gone from the listing: deleted, or moved out of its directories. */
  removed: string[];
}

export type ListListener = (changes: ListChanges) => void;

/** Subscriptions one connection may hold at once. */
export const MAX_LIST_SUBSCRIPTIONS = 128;
/** Changes are gathered until none came for this long... */
const QUIET_MS = 150;
/** ...or this long after the first of them, so a session written to all along is reported. */
const MAX_WAIT_MS = 1_000;

/** What a row is compared by: all but `updatedAt`, whose move alone is no change. */
const signature = (row: ListedSession) => JSON.stringify({ ...row, updatedAt: undefined });

/** One subscriber's view of one directory's listing. */
class Subscription {
  /** What it last heard of each session: a row's signature, or null once told it is gone. */
  private readonly sent = new Map<string, string | null>();
  /** Sessions to read again; true: a file changed, so the session may be gone. */
  private readonly pending = new Map<string, boolean>();
  private timer: NodeJS.Timeout | undefined;
  private firstAt = 0;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;
  readonly watch: TranscriptWatch;

  constructor(
    private readonly transcripts: ClaudeTranscripts,
    private readonly openState: OpenState,
    private readonly dirs: ReadonlySet<string>,
    private readonly listener: ListListener,
  ) {
    this.watch = transcripts.watch([...dirs], (ids) => ids.forEach((id) => this.note(id, true)));
  }

  /** The session may have changed: read it again soon. */
  note(sessionId: string, fileChanged: boolean): void {
    if (this.closed) return;
    this.pending.set(sessionId, fileChanged || this.pending.get(sessionId) === true);
    const now = Date.now();
    if (this.timer === undefined) this.firstAt = now;
    clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(QUIET_MS, this.firstAt + MAX_WAIT_MS - now));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flushing = this.flushing.then(() => this.flush());
    }, wait);
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.watch.close();
  }

  /** Reads the pending sessions and tells the listener what differs from what it heard. */
  private async flush(): Promise<void> {
    const pending = new Map(this.pending);
    this.pending.clear();
    try {
      // Only the folder's projects: a session recorded elsewhere is none of its rows.
      const saved = await this.transcripts.find([...pending.keys()], [...this.dirs]);
      const read = await this.transcripts.rows(saved);
      const rows = new Map<string, ListedSession>();
      for (const info of read) {
        if (!info || !isOneOf(info.cwd, this.dirs)) continue;
        const row = listedRow(info, this.openState);
        if (row) rows.set(row.sessionId, row);
      }
      const changes: ListChanges = { sessions: [], removed: [] };
      for (const [id, fileChanged] of pending) {
        const row = rows.get(id);
        const before = this.sent.get(id);
        if (row) {
          const now = signature(row);
          if (before === now) continue;
          this.sent.set(id, now);
          changes.sessions.push(row);
        } else if (before !== null && (fileChanged || before !== undefined)) {
          // A session of its directories whose file went, or one it was shown before.
          this.sent.set(id, null);
          changes.removed.push(id);
        }
      }
      if (this.closed || (!changes.sessions.length && !changes.removed.length)) return;
      this.listener(changes);
    } catch (error) {
      log.warn("could not read the changed sessions of a listing", error);
    }
  }
}

/**
 * The subscriptions to directories' listings of one connection (AIR's list subscription):
 * each hears of the sessions of its directory (and of that directory in the repository's other
 * worktrees) that are made, written so their row changes, archived, retitled or deleted, by
 * this agent, another one or a terminal Claude Code. Rows are read only when a file of the
 * directory's project changes or a session open here starts or ends work.
 */
export class ListFeed {
  private readonly subscriptions = new Set<Subscription>();

  constructor(
    private readonly transcripts: ClaudeTranscripts,
    private readonly openState: OpenState,
  ) {}

  /** Subscribes `listener` to the listing of `cwd` (checked as `session/list` checks it). */
  async subscribe(cwd: string, listener: ListListener): Promise<{ close(): void }> {
    if (this.subscriptions.size >= MAX_LIST_SUBSCRIPTIONS) {
      throw new InvalidParamsError(
        `At most ${MAX_LIST_SUBSCRIPTIONS} list subscriptions per connection: end one first.`,
        { max: MAX_LIST_SUBSCRIPTIONS },
      );
    }
    await requireDirectory(cwd, "cwd");
    const dirs = await listedDirs(cwd, true);
    const subscription = new Subscription(this.transcripts, this.openState, dirs, listener);
    this.subscriptions.add(subscription);
    return {
      close: () => {
        subscription.close();
        this.subscriptions.delete(subscription);
      },
    };
  }

  /** This agent changed what a row of the session shows (its work, title or archive mark). */
  touched(sessionId: string): void {
    this.subscriptions.forEach((subscription) => subscription.note(sessionId, false));
  }

  /** The connection is gone: every subscription ends. */
  close(): void {
    this.subscriptions.forEach((subscription) => subscription.close());
    this.subscriptions.clear();
  }
}
