// The lifecycle's parts of one session, built and connected to one another; what they need
// of the other rooms comes through the host.
import type { ProviderLaunch } from "../../claude/provider-env.js";
import type { ClaudeNotRespondingError } from "../../errors.js";
import type { ClaudeQuery } from "../../claude/query.js";
import { log } from "../../logger.js";
import { sessionEnvironment } from "../configuration/claude-env.js";
import { IdleClose } from "./idle-close.js";
import { IdleCompaction, type IdleCompactionTurnSide } from "./idle-compaction.js";
import { SessionProcess, type SessionProcessHost } from "./session-process.js";
import { SessionStartup, type SessionStartupHost } from "./session-startup.js";
import { Watchdog, watchdogBounds } from "./watchdog.js";

/** What the lifecycle's parts need of their session, besides what the start needs. */
export interface LifecycleHost
  extends Omit<SessionStartupHost, "process" | "idle">, SessionProcessHost {
  /** The conversation the session opens with: a new one, or the saved one it continues. */
  readonly opened: { id: string; resume?: string | undefined; resumeAt?: string | undefined };
  readonly provider?: ProviderLaunch | undefined;
  /** An idle session's Claude process is closed after this long (0: never). */
  readonly idleTimeoutMs: number;
  /** What an idle compaction reads of the session, and how it runs (idle-compaction.ts). */
  readonly compaction: IdleCompactionTurnSide;
  /** The process stopped answering a turn (watchdog.ts). */
  hung(query: ClaudeQuery, error: ClaudeNotRespondingError): void;
  /** Work started or ended: what a listing shows of the session may have changed. */
  stateChanged(sessionId: string): void;
}

export type LifecycleParts = ReturnType<typeof lifecycleParts>;

export function lifecycleParts(host: LifecycleHost) {
  const process = new SessionProcess(host, host.opened, host.provider);
  const idleCompaction = new IdleCompaction({
    ...host.compaction,
    env: host.env,
    claudeEnv: () => sessionEnvironment(host.env, host.setup, host.provider),
    query: () => process.current,
    idle: () => !host.closed() && !host.turns().busy && !host.backgroundBusy(),
    settled: () => idleClose.schedule(),
  });
  // An idle compaction due keeps the process whose prompt cache it reads.
  const idleClose = new IdleClose(host.idleTimeoutMs, () => {
    // Background work (a subagent, a command) would die with the process.
    if (idleCompaction.pending || host.closed() || host.turns().busy) return;
    if (!process.current || host.backgroundBusy()) return;
    log.debug(`session ${host.id()}: idle; closing its Claude Code process`);
    process.restart();
  });
  const watchdog = new Watchdog(
    watchdogBounds(host.env),
    () => process.current,
    (query, error) => host.hung(query, error),
  );
  /** Nothing runs: the process may close after a while, and a compaction may be due. */
  const idle = () => {
    idleClose.schedule();
    void idleCompaction.arm();
    host.stateChanged(host.id());
  };
  /** Work came (a prompt, a steer, a command): neither is due any more. */
  const busy = () => {
    idleClose.cancel();
    idleCompaction.cancel();
    host.stateChanged(host.id());
  };
  const startup = new SessionStartup({ ...host, process, idle });
  return { idleClose, idleCompaction, process, watchdog, startup, idle, busy };
}
