import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";
import { createAgent } from "./agent.js";
import type { ServerSessions } from "./served-sessions.js";
import type { AgentDependencies } from "./core/dependencies.js";

/** Pins the protocol version the agent speaks: `1` (ACP v1 only) or `2` (the v2 draft only). */
export const PROTOCOL_ENV = "CLAUDE_AGENT_ACP_PROTOCOL";

export type ProtocolPin = 1 | 2;

/** Serves one connection; `closed` settles when it has ended. */
export interface AgentConnector {
  connect(stream: Stream): { readonly closed: Promise<void> };
}

/** The pinned version, or undefined (both); anything else is a mistake, said so. */
export function protocolPin(env: NodeJS.ProcessEnv): ProtocolPin | undefined {
  const value = env[PROTOCOL_ENV]?.trim();
  if (!value) return undefined;
  if (value === "1" || value === "2") return Number(value) as ProtocolPin;
  throw new Error(`${PROTOCOL_ENV} must be 1 or 2 (got "${value.slice(0, 20)}").`);
}

/**
 * What serves a connection. Unpinned, the client's first request decides: an `initialize`
 * asking for a version below 2 is served by the v1 app, exactly as when pinned to 1 (a
 * version below 1 gets v1, as ACP asks: the latest version the agent supports at or below
 * it, or else its own); anything else (v2 or newer, a malformed `initialize`, another
 * request first) goes to the SDK's protocol router with both apps, which picks the highest
 * version at or below the one asked for and answers what it cannot route. Pinned to 2, the
 * router with the v2 app alone (a v1 client's `initialize` gets -32022, and may try again).
 * The v2 app and the router load only when a connection needs them: their schemas are a
 * large part of what the agent compiles before it can answer `initialize`.
 */
export function agentConnector(
  deps: AgentDependencies,
  pin?: ProtocolPin,
  server?: ServerSessions,
): AgentConnector {
  if (pin === 1) return createAgent(deps, server);
  if (pin === 2) return lazily(() => v2Router(deps, false));
  return {
    connect(stream) {
      // A connection that ends before any request has nothing to route: v1 closes it.
      return lazily(async (first) =>
        !first || asksForV1(first) ? createAgent(deps, server) : v2Router(deps, true),
      ).connect(stream);
    },
  };
}

async function v2Router(deps: AgentDependencies, withV1: boolean): Promise<AgentConnector> {
  const [{ agentProtocolRouter }, { createV2Agent }] = await Promise.all([
    import("@agentclientprotocol/sdk/experimental/v2"),
    import("./acp/v2/app.js"),
  ]);
  const router = agentProtocolRouter().withV2(createV2Agent(deps));
  return withV1 ? router.withV1(createAgent(deps)) : router;
}

/** The first request is an `initialize` that asks for a version below 2. */
function asksForV1(first: AnyMessage): boolean {
  if (!("method" in first) || first.method !== "initialize") return false;
  const params: unknown = first.params;
  if (typeof params !== "object" || params === null || !("protocolVersion" in params)) {
    return false;
  }
  const version = params.protocolVersion;
  return typeof version === "number" && Number.isInteger(version) && version >= 0 && version < 2;
}

/**
 * A connector chosen once the connection's first request has arrived (notifications and
 * responses before it are kept, and go to the chosen one first, in order).
 */
function lazily(
  choose: (first: AnyMessage | undefined) => Promise<AgentConnector> | AgentConnector,
): AgentConnector {
  return {
    connect(stream) {
      const reader = stream.readable.getReader();
      const closed = (async () => {
        const before: AnyMessage[] = [];
        let first: AnyMessage | undefined;
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          before.push(value);
          if ("method" in value && "id" in value) {
            first = value;
            break;
          }
        }
        const connector = await choose(first);
        const readable = new ReadableStream<AnyMessage>({
          start(controller) {
            for (const message of before) controller.enqueue(message);
          },
          async pull(controller) {
            const { value, done } = await reader.read();
            if (done) controller.close();
            else controller.enqueue(value);
          },
          cancel: (reason) => reader.cancel(reason),
        });
        await connector.connect({ readable, writable: stream.writable }).closed;
      })();
      return { closed };
    },
  };
}
