import {
  RequestError,
  type CompleteElicitationNotification,
  type ContentBlock,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SendRequestOptions,
} from "@agentclientprotocol/sdk";
import { deferred } from "../util/deferred.js";
import type { ClientChannel, SessionNotificationOut } from "./channel.js";

/** What a relay keeps of a session's history before it gives up keeping it. */
export const HISTORY_LIMIT_CHARS = 32 * 1024 * 1024;

/**
 * A served session's channel, which can outlive its connection (serve/, `--reconnect-grace`).
 * It keeps everything the session said (and the prompts it was given), as the client saw
 * it, so that a client that loads the session from a new connection sees the same history
 * and then the live turn: nothing lost, nothing twice. While no client is attached, updates
 * are only kept, and a permission or elicitation request waits for the next client; one a
 * dropped connection left unanswered is asked again there.
 *
 * A history over `HISTORY_LIMIT_CHARS` (its JSON text) is dropped: the session then cannot
 * be kept across a disconnect, and closes with its connection as a stdio session does.
 */
export class SessionRelay implements ClientChannel {
  private history: SessionNotificationOut[] | undefined = [];
  private historyChars = 0;
  /** Counts the changes of client: a request asked of an earlier one is asked again. */
  private generation = 0;
  /** Settles at the next change of client. */
  private moved = deferred<void>();
  private waiting: Array<() => void> = [];
  /** Prompts of this session's running on this agent, and who waits for them to end. */
  private prompts = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private target: ClientChannel | undefined,
    private readonly limitChars = HISTORY_LIMIT_CHARS,
  ) {}

  /** Whether a client on another connection can be given this session's history. */
  get keepsHistory(): boolean {
    return this.history !== undefined;
  }

  update(notification: SessionNotificationOut): Promise<void> {
    this.keep(notification);
    return this.target ? this.target.update(notification) : Promise.resolve();
  }

  /** A prompt the client sent: part of the history, never sent back to that client. */
  prompted(sessionId: string, blocks: readonly ContentBlock[], messageId?: string): void {
    for (const content of blocks) {
      this.keep({
        sessionId,
        update: {
          sessionUpdate: "user_message_chunk",
          content,
          ...(messageId !== undefined ? { messageId } : {}),
        },
      });
    }
  }

  /** A prompt's turn, running until `turn` settles. */
  track(turn: Promise<unknown>): void {
    this.prompts += 1;
    const ended = (): void => {
      this.prompts -= 1;
      if (this.prompts === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    };
    turn.then(ended, ended);
  }

  /** Whether a prompt's turn is running. */
  get prompting(): boolean {
    return this.prompts > 0;
  }

  /** Resolves when no prompt's turn is running. */
  idle(): Promise<void> {
    if (this.prompts === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  requestPermission(
    params: RequestPermissionRequest,
    options: SendRequestOptions,
  ): Promise<RequestPermissionResponse> {
    return this.asking((target) => target.requestPermission(params, options), options);
  }

  createElicitation(
    params: CreateElicitationRequest,
    options: SendRequestOptions,
  ): Promise<CreateElicitationResponse> {
    return this.asking((target) => target.createElicitation(params, options), options);
  }

  completeElicitation(params: CompleteElicitationNotification): Promise<void> {
    return this.target ? this.target.completeElicitation(params) : Promise.resolve();
  }

  /** The connection is gone: from now on the session's messages wait for the next one. */
  detach(): void {
    this.target = undefined;
    this.moving();
  }

  /**
   * A client on a new connection takes the session: with `replay`, its history first (what
   * the session says meanwhile joins it, in order), then everything live; requests waiting
   * for a client are asked again there.
   */
  async attach(target: ClientChannel, replay: boolean): Promise<void> {
    // The array grows while it is sent; a history dropped meanwhile is sent as far as kept.
    const history = replay ? this.history : undefined;
    if (history) for (let i = 0; i < history.length; i++) await target.update(history[i]!);
    this.target = target;
    this.moving();
    for (const wake of this.waiting.splice(0)) wake();
  }

  /** The session changes clients: a request waiting on the last one is asked again. */
  private moving(): void {
    this.generation += 1;
    const moved = this.moved;
    this.moved = deferred();
    moved.resolve();
  }

  private keep(notification: SessionNotificationOut): void {
    if (!this.history) return;
    this.historyChars += JSON.stringify(notification).length;
    if (this.historyChars > this.limitChars) this.history = undefined;
    else this.history.push(notification);
  }

  /**
   * Asks the attached client. A request whose client is gone before it answered (its
   * connection dropped, or the session moved to another), or none attached, means asking
   * the next client, until the request is cancelled (its signal) or the session closes.
   */
  private async asking<T>(
    ask: (target: ClientChannel) => Promise<T>,
    options: SendRequestOptions,
  ): Promise<T> {
    for (;;) {
      const target = this.target;
      if (!target) {
        await this.nextClient(options.cancellationSignal);
        continue;
      }
      const generation = this.generation;
      const asked = ask(target);
      asked.catch(() => undefined);
      const outcome = await Promise.race([
        asked.then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        ),
        this.moved.promise.then(() => undefined),
      ]);
      if (outcome === undefined || this.generation !== generation) continue;
      if ("error" in outcome) throw outcome.error;
      return outcome.value;
    }
  }

  private nextClient(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      // As the SDK fails a request cancelled while it waits for the answer.
      const cancelled = () => RequestError.requestCancelled();
      if (signal?.aborted) return reject(cancelled());
      const onAbort = (): void => {
        this.waiting = this.waiting.filter((wake) => wake !== done);
        reject(cancelled());
      };
      const done = (): void => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      this.waiting.push(done);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
}
