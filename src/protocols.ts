import type { Stream } from "@agentclientprotocol/sdk";
import { agentProtocolRouter } from "@agentclientprotocol/sdk/experimental/v2";
import { createV2Agent } from "./acp/v2/app.js";
import { createAgent } from "./agent.js";
import type { AgentDependencies } from "./agent-core.js";

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
 * What serves a connection. Unpinned, the SDK's protocol router reads the client's first
 * `initialize` and hands the connection to the v1 app or the v2 one: the highest version
 * at or below the one asked for. Pinned to 1, the v1 app alone, exactly as before v2 (any
 * version asked gets v1); pinned to 2, the router with the v2 app alone (a v1 client's
 * `initialize` gets -32022, and may try again).
 */
export function agentConnector(deps: AgentDependencies, pin?: ProtocolPin): AgentConnector {
  if (pin === 1) return createAgent(deps);
  const router = agentProtocolRouter().withV2(createV2Agent(deps));
  return pin === 2 ? router : router.withV1(createAgent(deps));
}
