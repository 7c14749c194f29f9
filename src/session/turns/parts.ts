// The turns' parts of one session, built and connected to one another; what they need of
// the other rooms comes through the host.
import { homedir } from "node:os";
import type { ClaudeQuery } from "../../claude/query.js";
import { SessionMcp } from "../../mcp/session-mcp.js";
import { plansDirectory } from "../../plan/plan-file.js";
import type { SessionConfiguration } from "../configuration/configuration.js";
import type { StreamProgress } from "../stream/stream-progress.js";
import type { UsageTracker } from "../stream/usage.js";
import { OwnTurns } from "./own-turns.js";
import type { PlanHandoff } from "../../plan/handoff.js";
import { PlanHandoffs } from "./plan-handoffs.js";
import { withSessionCopies } from "../../permissions/effects.js";
import { sessionCanUseTool } from "./tool-gate.js";
import { TurnQueue, type TurnQueueHost } from "./turn-queue.js";
import { UNFINISHED } from "./unfinished.js";

/** What the turns' parts need of their session, besides what the queue needs. */
export interface TurnsHost extends TurnQueueHost {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly additionalDirectories: readonly string[];
  readonly usage: UsageTracker;
  readonly progress: StreamProgress;
  /** A new conversation's process, for a plan handoff (session-process.ts). */
  newConversation(mode: PlanHandoff["mode"]): ClaudeQuery;
  configuration(): SessionConfiguration;
  /** The modes the session offers now (none before it started). */
  availableModes(): ReadonlySet<string>;
  /** The tools Claude Code reported it has. */
  claudeCapabilities(): readonly string[];
  followModel(): Promise<void>;
  afterTurn(): void;
  /** Whether the process reads the folder's project settings (session-trust in core/). */
  projectContext(): boolean;
}

export type TurnParts = ReturnType<typeof turnParts>;

export function turnParts(host: TurnsHost) {
  const { client, cwd, tools, stream, usage, activity, watchdog } = host;
  const turns = new TurnQueue(host);
  const plans = new PlanHandoffs(
    {
      currentTurn: () => turns.current,
      tools,
      configuration: () => host.configuration(),
      send: (update) => host.send(update),
      newConversation: (mode) => {
        const started = host.newConversation(mode);
        stream.endTurn();
        return started;
      },
    },
    plansDirectory(host.env),
  );
  const asked = sessionCanUseTool({
    client,
    tools,
    context: { cwd },
    homeDir: host.env.HOME || homedir(),
    workingDirectories: [cwd, ...host.additionalDirectories],
    currentTurn: () => turns.current,
    planContext: () => ({
      availableModes: host.availableModes(),
      ...(usage.usedPercent() === undefined ? {} : { contextUsedPercent: usage.usedPercent() }),
    }),
    plans,
    progress: host.progress,
    claudeCapabilities: () => host.claudeCapabilities(),
  });
  const canUseTool = watchdog.pausedWhileClientAnswers(
    async (...args: Parameters<typeof asked>) => {
      const result = await asked(...args);
      return result && !host.projectContext() ? withSessionCopies(result) : result;
    },
  );
  const mcp = new SessionMcp({
    client,
    turnSignal: () => turns.current?.abort.signal,
    openToolCalls: () => tools.open(),
    query: () => host.query(),
  });
  const ownTurns = new OwnTurns({
    client,
    usage,
    activity,
    userTurnRuns: () => !!turns.current && !turns.current.isFinished,
    closeOpen: async () => {
      stream.endTurn();
      await turns.closeOpenToolCalls(() => UNFINISHED.noResult);
    },
    followModel: () => host.followModel(),
    afterTurn: () => host.afterTurn(),
    send: (update) => host.send(update),
    promptsWait: () => turns.busy,
    interrupt: () => {
      const query = host.query();
      if (query) watchdog.interrupted(query, query.interrupt());
      return !!query;
    },
  });
  return { turns, plans, canUseTool, mcp, ownTurns };
}
