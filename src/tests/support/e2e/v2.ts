import { randomUUID } from "node:crypto";
import * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import {
  startScriptedApi,
  type Scenario,
  type ScriptedApi,
  type TurnSpec,
} from "../../../scripted-api/index.js";
import { spawnAgent, type AgentProcess } from "./agent-process.js";
import { agentEnv, printReportIfTheTestFails } from "./harness.js";
import { requireBuiltAgent } from "./paths.js";
import { killSurvivors } from "./processes.js";
import { createSandbox, type Sandbox } from "./sandbox.js";
import { tapFromAgent, tapToAgent, Transcript } from "./transcript.js";
import { Changes, startClock } from "./wait.js";

/** How the v2 test client answers `session/request_permission`. */
export type V2PermissionPolicy =
  { answer: "select"; optionId: string; meta?: Record<string, unknown> } | { answer: "cancelled" };

export interface V2PermissionRecord {
  request: v2.RequestPermissionRequest;
  answer: v2.RequestPermissionResponse;
}

export interface V2E2EOptions {
  scenario?: Scenario | TurnSpec[];
  env?: Record<string, string | undefined>;
  capabilities?: v2.ClientCapabilities;
  permission?: V2PermissionPolicy;
  /** Send a v2 `initialize` before returning (default true). */
  initialize?: boolean;
}

const live = new Set<V2E2E>();

/**
 * One end-to-end run with an ACP v2 client: the built agent over stdio with the real Claude
 * Code behind it and the scripted API, as `startE2E` (harness.ts) runs it for v1, and an
 * SDK v2 client whose wire traffic is recorded.
 */
export class V2E2E {
  readonly transcript: Transcript;
  readonly notifications: v2.UpdateSessionNotification[] = [];
  readonly permissions: V2PermissionRecord[] = [];
  readonly client: v2.ClientContext;
  readonly cwd: string;
  private readonly changes = new Changes();
  private readonly connection: v2.ClientConnection;
  private stopping: Promise<void> | undefined;

  constructor(
    readonly api: ScriptedApi,
    private readonly sandbox: Sandbox,
    private readonly marker: string,
    readonly agent: AgentProcess,
    public policy: V2PermissionPolicy,
  ) {
    this.cwd = sandbox.cwd;
    this.transcript = new Transcript(startClock());
    const toAgent = tapToAgent(agent.child.stdin, this.transcript);
    const fromAgent = tapFromAgent(agent.child.stdout, this.transcript, () => true);
    this.connection = v2
      .client({ name: "claude-agent-acp-e2e-v2" })
      .onNotification(v2.methods.client.session.update, ({ params }) => {
        this.notifications.push(params);
        this.changes.notify();
      })
      .onRequest(v2.methods.client.session.requestPermission, ({ params }) => {
        const answer: v2.RequestPermissionResponse =
          this.policy.answer === "select"
            ? {
                outcome: { outcome: "selected", optionId: this.policy.optionId },
                ...(this.policy.meta ? { _meta: this.policy.meta } : {}),
              }
            : { outcome: { outcome: "cancelled" } };
        this.permissions.push({ request: params, answer });
        return answer;
      })
      .connect(v2.ndJsonStream(toAgent.writable, fromAgent));
    this.client = this.connection.agent;
  }

  initialize(capabilities: v2.ClientCapabilities = {}): Promise<v2.InitializeResponse> {
    return this.client.request(v2.methods.agent.initialize, {
      protocolVersion: 2,
      info: { name: "claude-agent-acp-e2e-v2", version: "0.0.0" },
      capabilities,
    });
  }

  newSession(): Promise<v2.NewSessionResponse> {
    return this.client.request(v2.methods.agent.session.new, { cwd: this.cwd });
  }

  /** The session's updates, in arrival order. */
  updates(sessionId: string): v2.SessionUpdate[] {
    return this.notifications.filter((n) => n.sessionId === sessionId).map((n) => n.update);
  }

  private idles(sessionId: string) {
    return this.updates(sessionId).flatMap((u) =>
      u.sessionUpdate === "state_update" && u.state === "idle" ? [u] : [],
    );
  }

  /**
   * Sends a text prompt and waits for its turn's end: the prompt's answer (the inserted
   * message's id), then the next idle `state_update`, whose stop reason it returns.
   */
  async prompt(
    sessionId: string,
    text: string,
  ): Promise<{ messageId: string; stopReason: unknown }> {
    const before = this.idles(sessionId).length;
    const { messageId } = await this.client.request(v2.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text }],
    });
    const idle = await this.changes.until(
      () => this.idles(sessionId)[before],
      60_000,
      `the idle state of ${sessionId} after prompt ${messageId}`,
    );
    return { messageId, stopReason: "stopReason" in idle ? idle.stopReason : undefined };
  }

  /** Resolves once `predicate` holds for what the client has seen. */
  until(predicate: () => boolean, timeoutMs = 15_000): Promise<true> {
    return this.changes.until(() => predicate() || undefined, timeoutMs, "a v2 update");
  }

  log(): string {
    return this.agent.log();
  }

  report(): string {
    return [
      `--- e2e v2 wire transcript (last 100 lines) ---`,
      this.transcript.format(100),
      `--- e2e agent stderr (tail) ---`,
      this.log().slice(-20_000),
    ].join("\n");
  }

  stop(): Promise<void> {
    this.stopping ??= this.teardown();
    return this.stopping;
  }

  private async teardown(): Promise<void> {
    this.changes.stop();
    this.transcript.stop();
    this.connection.close();
    await this.agent.killGroup(500);
    await killSurvivors(this.marker, 1_000);
    await this.api.close();
    await this.sandbox.remove();
    live.delete(this);
  }
}

/** Starts a v2 run and (by default) initializes it with protocol version 2. */
export async function startV2E2E(options: V2E2EOptions = {}): Promise<V2E2E> {
  requireBuiltAgent();
  const sandbox = await createSandbox();
  const api = await startScriptedApi(options.scenario ?? [], { cursor: "server" });
  const marker = randomUUID();
  const agent = spawnAgent({
    env: agentEnv(api, sandbox, marker, options.env),
    cwd: sandbox.root,
  });
  const e2e = new V2E2E(api, sandbox, marker, agent, options.permission ?? { answer: "cancelled" });
  live.add(e2e);
  printReportIfTheTestFails(e2e);
  if (options.initialize !== false) {
    try {
      await e2e.initialize(options.capabilities);
    } catch (error) {
      await e2e.stop();
      throw new Error(`initialize failed: ${String(error)}`, { cause: error });
    }
  }
  return e2e;
}

export async function stopAllV2E2E(): Promise<void> {
  await Promise.all([...live].map((e2e) => e2e.stop()));
}
