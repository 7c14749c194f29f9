import type { RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import { Changes, sleep, type Clock } from "./wait.js";

/** How the test client answers `session/request_permission`. */
export type PermissionPolicy =
  /** Select an option: a fixed id, or one chosen from the request. `meta` goes on the answer. */
  | {
      answer: "select";
      optionId: string | ((request: RequestPermissionRequest) => string);
      meta?: Record<string, unknown>;
    }
  /** Answer `{outcome: "cancelled"}` at once. */
  | { answer: "cancelled" }
  /** A well-behaved client that waits for the user: answers `cancelled` only once the request is cancelled. */
  | { answer: "never" }
  /** A client that ignores cancellation: never answers at all. */
  | { answer: "never-even-when-cancelled" }
  /** Selects `optionId` after `delayMs`, whether or not the request was cancelled meanwhile. */
  | { answer: "late"; optionId: string; delayMs: number };

export interface PermissionRecord {
  request: RequestPermissionRequest;
  /** Milliseconds since the harness started. */
  receivedAtMs: number;
  /** The request was cancelled by the agent (`$/cancel_request`) or the connection closed. */
  cancelled: boolean;
  /** What the client answered; undefined while (or if never) answered. */
  answer?: RequestPermissionResponse;
  answeredAtMs?: number;
}

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: "cancelled" } };

function selected(optionId: string, meta?: Record<string, unknown>): RequestPermissionResponse {
  return { outcome: { outcome: "selected", optionId }, ...(meta ? { _meta: meta } : {}) };
}

/** The test client's permission desk: answers by policy and records every request and answer. */
export class Permissions {
  readonly records: PermissionRecord[] = [];
  private readonly changes = new Changes();
  /** Unblocks the handlers that never answer, so stopping leaves no dangling work. */
  private released = new AbortController();

  constructor(
    private readonly clock: Clock,
    /** The policy in force; a test may change it between requests. */
    public policy: PermissionPolicy = { answer: "cancelled" },
  ) {}

  /** The `session/request_permission` handler of the test client. */
  async answer(
    request: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse> {
    const record: PermissionRecord = {
      request,
      receivedAtMs: this.clock(),
      cancelled: signal.aborted,
    };
    signal.addEventListener("abort", () => {
      record.cancelled = true;
      this.changes.notify();
    });
    this.records.push(record);
    this.changes.notify();
    const answer = await this.decide(this.policy, request, signal);
    record.answer = answer;
    record.answeredAtMs = this.clock();
    this.changes.notify();
    return answer;
  }

  /** Resolves with the `n`-th (1-based) permission request once it has arrived. */
  waitForRequest(n = 1, timeoutMs = 15_000): Promise<PermissionRecord> {
    return this.changes.until(
      () => this.records[n - 1],
      timeoutMs,
      `permission request #${n} (got ${this.records.length})`,
    );
  }

  stop(): void {
    this.released.abort();
    this.changes.stop();
  }

  /** A shared agent's next test: earlier answers released and forgotten, a new policy. */
  reset(policy: PermissionPolicy = { answer: "cancelled" }): void {
    this.released.abort();
    this.released = new AbortController();
    this.records.length = 0;
    this.policy = policy;
  }

  private async decide(
    policy: PermissionPolicy,
    request: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse> {
    switch (policy.answer) {
      case "select": {
        const id =
          typeof policy.optionId === "function" ? policy.optionId(request) : policy.optionId;
        return selected(id, policy.meta);
      }
      case "cancelled":
        return CANCELLED;
      case "never":
        await this.until(signal);
        return CANCELLED;
      case "never-even-when-cancelled":
        await this.until();
        return CANCELLED; // only reached when the harness stops; nobody reads it
      case "late":
        await Promise.race([sleep(policy.delayMs), this.until()]);
        return selected(policy.optionId);
    }
  }

  /** Resolves when `signal` fires or the harness stops. */
  private until(signal?: AbortSignal): Promise<void> {
    const signals = signal ? [signal, this.released.signal] : [this.released.signal];
    const any = AbortSignal.any(signals);
    return new Promise((resolve) => {
      if (any.aborted) resolve();
      else any.addEventListener("abort", () => resolve(), { once: true });
    });
  }
}
