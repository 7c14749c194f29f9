import type {
  AgentApp,
  AgentConnectOptions,
  AgentConnection,
  AnyMessage,
  ClientApp,
  ClientCapabilities,
  Stream,
} from "@agentclientprotocol/sdk";
import type { SubagentCapabilities } from "@agentclientprotocol/sdk/unstable";
import { z } from "zod";

/**
 * Client capabilities of ACP's unstable schema that the agent acts on. The stable SDK app
 * validates `initialize` with the stable schema, which drops them, so they are read from
 * the raw request on its way in (see `tapInitialize`).
 */
export interface UnstableClientCapabilities {
  /** The client shows subagents as child sessions (`subagent_update`, `session_message`). */
  subagents?: SubagentCapabilities | null;
}

/** What a session knows of its client: the stable capabilities and the unstable ones above. */
export type AgentClientCapabilities = ClientCapabilities & UnstableClientCapabilities;

/** Each elicitation mode must be present and non-null; `{}` alone advertises none. */
export function supportsFormElicitation(capabilities: AgentClientCapabilities): boolean {
  const form = capabilities.elicitation?.form;
  return form !== undefined && form !== null;
}

/** URL mode likewise: the client can send the user to a page (an MCP server's sign-in). */
export function supportsUrlElicitation(capabilities: AgentClientCapabilities): boolean {
  const url = capabilities.elicitation?.url;
  return url !== undefined && url !== null;
}

/** `{}` (any object) declares the capability; omitted, `null` or malformed declares none. */
const initializeRequest = z.object({
  method: z.literal("initialize"),
  params: z.object({
    clientCapabilities: z.object({
      subagents: z.record(z.string(), z.unknown()).nullish().catch(undefined),
    }),
  }),
});

/** The unstable capabilities a raw message declares, when it is an `initialize` request. */
export function unstableCapabilitiesOf(message: unknown): UnstableClientCapabilities | undefined {
  const parsed = initializeRequest.safeParse(message);
  if (!parsed.success) return undefined;
  const { subagents } = parsed.data.params.clientCapabilities;
  return subagents ? { subagents } : {};
}

/** The stream as it is, reporting each `initialize` request's unstable capabilities on the way in. */
export function tapInitialize(
  stream: Stream,
  seen: (capabilities: UnstableClientCapabilities) => void,
): Stream {
  const readable = stream.readable.pipeThrough(
    new TransformStream<AnyMessage, AnyMessage>({
      transform(message, controller) {
        const capabilities = unstableCapabilitiesOf(message);
        if (capabilities) seen(capabilities);
        controller.enqueue(message);
      },
    }),
  );
  return { readable, writable: stream.writable };
}

/**
 * The app, reporting the unstable capabilities of the `initialize` on each stream it is
 * connected to. An app connected to a client app in process declares none.
 */
export function withUnstableCapabilities(
  app: AgentApp,
  seen: (capabilities: UnstableClientCapabilities) => void,
): AgentApp {
  const connect = app.connect.bind(app) as (
    target: Stream | ClientApp,
    options?: AgentConnectOptions,
  ) => AgentConnection;
  // The options (the protocol router defers the connect handlers) go on as they are.
  const tapped = (target: Stream | ClientApp, options?: AgentConnectOptions): AgentConnection =>
    connect("readable" in target ? tapInitialize(target, seen) : target, options);
  app.connect = tapped;
  return app;
}
