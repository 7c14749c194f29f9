import { isRecord } from "../../../util/records.js";
import type { WireMessage } from "../e2e/index.js";

/**
 * What `acpx --format json` prints: every ACP message of the run, both directions, one JSON
 * object a line, untagged (acpx's own requests and the agent's share ids from 0), and acpx's
 * own failures as JSON-RPC error lines at the end.
 */
export class JsonOutput {
  readonly messages: WireMessage[];

  constructor(stdout: string) {
    this.messages = stdout
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line): WireMessage => {
        const value: unknown = JSON.parse(line);
        if (!isRecord(value)) throw new Error(`acpx printed a line that is no object: ${line}`);
        return value;
      });
  }

  /** The requests (or notifications) of one method, in order, from either side. */
  requests(method: string): WireMessage[] {
    return this.messages.filter((m) => m.method === method);
  }

  /** The params of the one `session/new` acpx sent. */
  newSessionParams(): Record<string, unknown> {
    const [request, ...more] = this.requests("session/new");
    if (!request || more.length > 0 || !isRecord(request.params)) {
      throw new Error(
        `expected one session/new request, got ${this.requests("session/new").length}`,
      );
    }
    return request.params;
  }

  /** The stop reason of the prompt's answer (as acpx itself finds it: a result with one). */
  stopReason(): string | undefined {
    for (const m of this.messages) {
      if (m.method === undefined && isRecord(m.result) && typeof m.result.stopReason === "string") {
        return m.result.stopReason;
      }
    }
    return undefined;
  }

  /** The text of every `agent_message_chunk`, joined. */
  agentText(): string {
    return this.requests("session/update")
      .map((m) => (isRecord(m.params) ? m.params.update : undefined))
      .map((update) =>
        isRecord(update) &&
        update.sessionUpdate === "agent_message_chunk" &&
        isRecord(update.content) &&
        typeof update.content.text === "string"
          ? update.content.text
          : "",
      )
      .join("");
  }

  /** Error lines: an agent's error answers and acpx's own failures. */
  errors(): NonNullable<WireMessage["error"]>[] {
    return this.messages.flatMap((m) => (m.error ? [m.error] : []));
  }
}
