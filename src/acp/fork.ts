import { z } from "zod";
import type { McpServer } from "@agentclientprotocol/sdk";

/** The fields of the unstable ForkSessionRequest this agent uses. */
export interface ForkSessionParams {
  sessionId: string;
  cwd: string;
  mcpServers?: McpServer[] | null;
  additionalDirectories?: string[] | null;
}

/** `session/fork` is in ACP's unstable API; the stable app takes it as a custom method. */
export const FORK_METHOD = "session/fork";

const envVariable = z.looseObject({ name: z.string(), value: z.string() });
const header = z.looseObject({ name: z.string(), value: z.string() });
const mcpServer = z.union([
  z.looseObject({
    type: z.literal("http"),
    name: z.string(),
    url: z.string(),
    headers: z.array(header),
  }),
  z.looseObject({
    type: z.literal("sse"),
    name: z.string(),
    url: z.string(),
    headers: z.array(header),
  }),
  z.looseObject({
    name: z.string(),
    command: z.string(),
    args: z.array(z.string()),
    env: z.array(envVariable),
  }),
]);

const schema = z.looseObject({
  sessionId: z.string(),
  cwd: z.string(),
  mcpServers: z.array(mcpServer).nullish(),
  additionalDirectories: z.array(z.string()).nullish(),
});

/** Validates fork params; a failure becomes invalid params at the protocol edge. */
export const forkSessionParams = {
  parse: (params: unknown): ForkSessionParams => schema.parse(params),
};
