import type { SessionNotification, SessionUpdate } from "@agentclientprotocol/sdk";
import { Changes, type Clock } from "./wait.js";

export type UpdateKind = SessionUpdate["sessionUpdate"];
export type UpdateOf<K extends UpdateKind> = Extract<SessionUpdate, { sessionUpdate: K }>;

export interface ReceivedUpdate {
  sessionId: string;
  update: SessionUpdate;
  /** Milliseconds since the harness started. */
  atMs: number;
}

/** The `session/update` notifications the test client received, in arrival order. */
export class UpdateLog {
  readonly received: ReceivedUpdate[] = [];
  private readonly changes = new Changes();

  constructor(private readonly clock: Clock) {}

  /** A shared agent's next test starts with no updates. */
  forget(): void {
    this.received.length = 0;
  }

  add(notification: SessionNotification): void {
    this.received.push({ ...notification, atMs: this.clock() });
    this.changes.notify();
  }

  /** The session's updates, all of them or those of one kind. */
  of(sessionId: string): SessionUpdate[];
  of<K extends UpdateKind>(sessionId: string, kind: K): UpdateOf<K>[];
  of(sessionId: string, kind?: UpdateKind): SessionUpdate[] {
    return this.received
      .filter((r) => r.sessionId === sessionId && (!kind || r.update.sessionUpdate === kind))
      .map((r) => r.update);
  }

  /** Resolves with the session's first update (of `kind`) matching `predicate`, waiting if needed. */
  waitFor<K extends UpdateKind>(
    sessionId: string,
    kind: K,
    predicate: (update: UpdateOf<K>) => boolean = () => true,
    timeoutMs = 15_000,
  ): Promise<UpdateOf<K>> {
    return this.changes.until(
      () => this.of(sessionId, kind).find(predicate),
      timeoutMs,
      `a ${kind} update in session ${sessionId}`,
    );
  }

  stop(): void {
    this.changes.stop();
  }
}
