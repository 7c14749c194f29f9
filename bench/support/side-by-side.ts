// One long-lived agent session next to one long-lived direct-SDK query, in one sandbox with
// the same env: what the turn and streaming suites compare.
import { BenchAgent } from "./agent-process.js";
import type { BenchContext } from "./context.js";
import { benchEnv, createSandbox } from "./sandbox.js";
import { BaselineQuery } from "./sdk-baseline.js";

export interface SideBySide {
  agent: BenchAgent;
  /** The agent's session, in `agentCwd`. */
  sessionId: string;
  agentCwd: string;
  /** The SDK's query, started and initialized, in `sdkCwd`. */
  sdk: BaselineQuery;
  sdkCwd: string;
}

/** Starts both, runs `compare`, then ends both and removes the sandbox; a failure shows the agent's stderr. */
export async function sideBySide<T>(
  ctx: BenchContext,
  label: string,
  compare: (pair: SideBySide) => Promise<T>,
): Promise<T> {
  const sandbox = await createSandbox(label);
  const env = benchEnv(ctx.api.url, sandbox);
  const agentCwd = await sandbox.dir("agent-cwd");
  const sdkCwd = await sandbox.dir("sdk-cwd");
  const agent = new BenchAgent({ env, cwd: sandbox.root });
  let sdk: BaselineQuery | undefined;
  try {
    await agent.initialize();
    const { result: session } = await agent.newSession(agentCwd);
    sdk = new BaselineQuery({ cwd: sdkCwd, env });
    await sdk.query.initializationResult();
    return await compare({ agent, sessionId: session.sessionId, agentCwd, sdk, sdkCwd });
  } catch (error) {
    process.stderr.write(`--- agent stderr (tail) ---\n${agent.log()}\n`);
    throw error;
  } finally {
    sdk?.close();
    await agent.stop();
    await sandbox.remove();
  }
}
