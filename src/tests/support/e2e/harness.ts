import { randomUUID } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import {
  client,
  methods,
  ndJsonStream,
  type ClientApp,
  type ClientCapabilities,
  type ClientConnection,
  type ClientContext,
  type ContentBlock,
  type InitializeResponse,
  type NewSessionRequest,
  type NewSessionResponse,
  type PromptResponse,
} from "@agentclientprotocol/sdk";
import { onTestFailed } from "vitest";
import {
  startScriptedApi,
  type CursorScope,
  type Scenario,
  type ScriptedApi,
  type TurnSpec,
} from "../../../scripted-api/index.js";
import { spawnAgent, type AgentProcess } from "./agent-process.js";
import { Permissions, type PermissionPolicy } from "./permissions.js";
import {
  MARKER_VARIABLE,
  processesWithMarker,
  killSurvivors,
  survivingProcesses,
  type MarkedProcess,
} from "./processes.js";
import { requireBuiltAgent } from "./paths.js";
import { createSandbox, type Sandbox } from "./sandbox.js";
import {
  addShared,
  chosenKinds,
  emptyDirectory,
  returnShared,
  sessionsOpened,
  sessionStillFresh,
  sharesSessions,
  sharingKey,
  takeShared,
  ToolIdLedger,
  userSettings,
  type Shareable,
} from "./shared-agents.js";
import { tapFromAgent, tapToAgent, Transcript, type WireMessage } from "./transcript.js";
import { UpdateLog } from "./updates.js";
import { startClock } from "./wait.js";

export interface E2EOptions {
  /** The model turns the scripted API plays (default none: every turn answers "Done."). */
  scenario?: Scenario | TurnSpec[];
  /** "session": each Claude Code session has its own position in the script. */
  cursor?: CursorScope;
  /** Extra env of the agent (and so of Claude Code); `undefined` removes a default. */
  env?: Record<string, string | undefined>;
  /** Sent with `initialize` (default `{}`). */
  clientCapabilities?: ClientCapabilities;
  /** How `session/request_permission` is answered (default: `cancelled`); changeable later. */
  permission?: PermissionPolicy;
  /** Send `initialize` before returning (default true). */
  initialize?: boolean;
  /** In a file that shares agents (`shareAgents()`), start one for this test alone. */
  ownAgent?: boolean;
  /** Adds handlers to the test client (fs, terminal, elicitation...). */
  extendClient?: (app: ClientApp) => ClientApp;
}

export interface StopReport {
  /** Marked processes that outlived the process-group kill (then killed one by one). */
  survivors: MarkedProcess[];
}

/** SIGTERM first; the group gets SIGKILL after this. */
const TERM_GRACE_MS = 500;
const live = new Set<E2E>();

/**
 * One end-to-end run: a temp HOME / CLAUDE_CONFIG_DIR / cwd, a scripted Anthropic API,
 * the built agent spawned over stdio (with real Claude Code behind it), and an ACP SDK
 * client connected to it whose whole wire traffic is recorded.
 */
export class E2E implements Shareable {
  /** The scripted Anthropic API: its `requests` show what Claude Code sent the model. */
  readonly api: ScriptedApi;
  readonly home: string;
  readonly configDir: string;
  /** The default session cwd (a new one for each test on a shared agent). */
  cwd: string;
  /** Carried in the env of every process of this run (see `processes()`). */
  readonly marker: string;
  readonly agent: AgentProcess;
  /** The SDK client's view of the agent: typed requests and notifications. */
  readonly client: ClientContext;
  readonly transcript: Transcript;
  readonly updates: UpdateLog;
  readonly permissions: Permissions;
  private readonly sandbox: Sandbox;
  private readonly connection: ClientConnection;
  private readonly toAgent: ReturnType<typeof tapToAgent>;
  private readonly rawIds = new Set<string>();
  private stopping: Promise<StopReport> | undefined;
  /** Set while the agent is shared between the tests of a file (see shared-agents.ts). */
  private sharedAs: string | undefined;
  private tests = 1;
  private logFrom = 0;
  /** The session the tests of a file share (see `shareAgents({ sessions: true })`). */
  private sharedSession: NewSessionResponse | undefined;
  private toolIds = new ToolIdLedger();
  private userSettingsAtStart = "";

  constructor(parts: {
    api: ScriptedApi;
    sandbox: Sandbox;
    marker: string;
    env: NodeJS.ProcessEnv;
    options: E2EOptions;
  }) {
    const clock = startClock();
    this.api = parts.api;
    this.sandbox = parts.sandbox;
    this.home = parts.sandbox.home;
    this.configDir = parts.sandbox.configDir;
    this.cwd = parts.sandbox.cwd;
    this.marker = parts.marker;
    this.transcript = new Transcript(clock);
    this.updates = new UpdateLog(clock);
    this.permissions = new Permissions(clock, parts.options.permission);
    // The agent's own cwd is not the session's: a session must use the cwd it was given.
    this.agent = spawnAgent({ env: parts.env, cwd: parts.sandbox.root });
    this.toAgent = tapToAgent(this.agent.child.stdin, this.transcript);
    // Answers to our raw requests (and id-less errors answering raw garbage) are recorded
    // but kept from the SDK client, which knows nothing of them.
    const answersRaw = (m: WireMessage | undefined): boolean =>
      m !== undefined &&
      m.method === undefined &&
      (m.id === null || (typeof m.id === "string" && this.rawIds.has(m.id)));
    const fromAgent = tapFromAgent(
      this.agent.child.stdout,
      this.transcript,
      (entry) => !answersRaw(entry.message),
    );
    let app = client({ name: "claude-agent-acp-e2e" })
      .onNotification(methods.client.session.update, ({ params }) => this.updates.add(params))
      .onRequest(methods.client.session.requestPermission, ({ params, signal }) =>
        this.permissions.answer(params, signal),
      );
    if (parts.options.extendClient) app = parts.options.extendClient(app);
    this.connection = app.connect(ndJsonStream(this.toAgent.writable, fromAgent));
    this.client = this.connection.agent;
  }

  initialize(clientCapabilities: ClientCapabilities = {}): Promise<InitializeResponse> {
    return this.client.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities,
      clientInfo: { name: "claude-agent-acp-e2e", version: "0.0.0" },
    });
  }

  /** `session/new` in the sandbox cwd unless `request.cwd` says otherwise. */
  async newSession(request: Partial<NewSessionRequest> = {}): Promise<NewSessionResponse> {
    const shareable = this.sharedAs !== undefined && sharesSessions();
    if (shareable && Object.keys(request).length === 0) {
      if (this.sharedSession === undefined) {
        this.sharedSession = await this.freshSession();
        this.toolIds = new ToolIdLedger();
      }
      return structuredClone(this.sharedSession);
    }
    return this.freshSession(request);
  }

  /** Always a new session, also in a file whose tests share one. */
  freshSession(request: Partial<NewSessionRequest> = {}): Promise<NewSessionResponse> {
    return this.client.request(methods.agent.session.new, {
      cwd: this.cwd,
      mcpServers: [],
      ...request,
    });
  }

  prompt(sessionId: string, prompt: string | ContentBlock[]): Promise<PromptResponse> {
    return this.client.request(methods.agent.session.prompt, {
      sessionId,
      prompt: typeof prompt === "string" ? [{ type: "text", text: prompt }] : prompt,
    });
  }

  cancel(sessionId: string): Promise<void> {
    return this.client.notify(methods.agent.session.cancel, { sessionId });
  }

  /** Writes `text` to the agent's stdin as it is (add the "\n" yourself). Recorded. */
  sendRaw(text: string): Promise<void> {
    return this.toAgent.writeRaw(new TextEncoder().encode(text));
  }

  /**
   * Sends a JSON-RPC request outside the SDK client (no validation on our side) and
   * resolves with the agent's response as it came over the wire.
   */
  async rawRequest(method: string, params?: unknown, timeoutMs = 10_000): Promise<WireMessage> {
    const id = `raw-${this.rawIds.size + 1}`;
    this.rawIds.add(id);
    const from = this.transcript.entries.length;
    await this.sendRaw(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    const response = await this.transcript.waitFor(
      (e) =>
        e.direction === "from-agent" && e.message?.method === undefined && e.message?.id === id,
      { from, timeoutMs, what: `the response to raw ${method} (${id})` },
    );
    return response.message ?? {};
  }

  /** Ends the agent's stdin, as a client that goes away does. */
  closeStdin(): void {
    this.toAgent.end();
  }

  /** The live processes of this run: the agent, Claude Code, and their children. */
  processes(): Promise<MarkedProcess[]> {
    return processesWithMarker(this.marker);
  }

  /** Waits up to `timeoutMs` for this run's processes to end; returns those still alive. */
  survivors(timeoutMs: number): Promise<MarkedProcess[]> {
    return survivingProcesses(this.marker, timeoutMs);
  }

  /** The agent's stderr (debug log, with Claude Code's stderr), since this test began. */
  log(): string {
    return this.agent.log().slice(this.logFrom);
  }

  /** Shared from now on under `key`: `stop()` ends the test's sessions, not the agent. */
  share(key: string): void {
    this.sharedAs = key;
    this.userSettingsAtStart = userSettings(this.configDir);
    addShared(this);
    this.unshareIfTheTestFails();
  }

  /** A test that failed may have left the agent in any state: the next test gets a new one. */
  private unshareIfTheTestFails(): void {
    try {
      onTestFailed(() => (this.sharedAs = undefined));
    } catch {
      // outside a test: nothing to watch
    }
  }

  reusable(): boolean {
    return (
      this.sharedAs !== undefined &&
      this.stopping === undefined &&
      this.agent.child.exitCode === null
    );
  }

  /** The next test on a shared agent: a new cwd, and every record and policy starts over. */
  async nextTest(options: E2EOptions): Promise<void> {
    this.tests += 1;
    if (sharesSessions()) {
      // The shared session keeps its cwd; emptied, so no test sees a file an earlier one made.
      await emptyDirectory(this.cwd);
    } else {
      this.cwd = join(this.sandbox.root, `cwd-${this.tests}`);
      await mkdir(this.cwd);
    }
    this.api.setScenario(options.scenario ?? []);
    this.api.forgetRequests();
    this.permissions.reset(options.permission);
    this.transcript.forget();
    this.updates.forget();
    this.logFrom = this.agent.log().length;
    this.userSettingsAtStart = userSettings(this.configDir);
    live.add(this);
    printReportIfTheTestFails(this);
    this.unshareIfTheTestFails();
  }

  /** Ends the test's sessions (and so their Claude Code) and hands the agent to the next test. */
  private async release(key: string): Promise<StopReport> {
    // A test that changed the user's settings changed every later session: a new agent.
    if (userSettings(this.configDir) !== this.userSettingsAtStart) {
      this.sharedAs = undefined;
      return this.stop();
    }
    live.delete(this);
    const close = (sessionId: string) =>
      this.rawRequest("session/close", { sessionId }, 5_000).catch(() => undefined);
    const kept = this.sharedSession?.sessionId;
    const reused =
      kept === undefined
        ? []
        : this.toolIds.note(this.updates.of(kept, "tool_call").map((u) => u.toolCallId));
    if (kept !== undefined && !this.sharedSessionStillFresh(kept)) this.sharedSession = undefined;
    const ending = sessionsOpened(this.transcript.entries).filter(
      (id) => id !== this.sharedSession?.sessionId,
    );
    if (kept !== undefined && this.sharedSession === undefined) ending.push(kept);
    await Promise.all([...new Set(ending)].map(close));
    returnShared(key, this);
    if (reused.length > 0) {
      // Claude Code drops a repeated id from the conversation: the test would not see its turn.
      throw new Error(
        `tool use id ${reused.join(", ")} was used by an earlier test of the shared session: ` +
          `give the test a unique id or its own session (e2e.freshSession())`,
      );
    }
    return { survivors: [] };
  }

  private sharedSessionStillFresh(sessionId: string): boolean {
    const answers = chosenKinds(this.permissions.records);
    const modeChanged = this.updates.of(sessionId, "current_mode_update").length > 0;
    return sessionStillFresh(this.transcript.entries, sessionId, answers, modeChanged);
  }

  /** Stops the agent for good, shared or not. */
  shutdown(): Promise<StopReport> {
    this.sharedAs = undefined;
    return this.stop();
  }

  /** Kills every process of the run, closes the API, removes the temp dirs. Idempotent. */
  stop(): Promise<StopReport> {
    if (this.sharedAs !== undefined && this.reusable()) return this.release(this.sharedAs);
    this.stopping ??= this.teardown();
    return this.stopping;
  }

  private async teardown(): Promise<StopReport> {
    this.permissions.stop();
    this.updates.stop();
    this.transcript.stop();
    this.connection.close();
    await this.agent.killGroup(TERM_GRACE_MS);
    const survivors = await killSurvivors(this.marker, 1_000);
    await this.api.close();
    await this.sandbox.remove();
    live.delete(this);
    return { survivors };
  }

  /** What a failing test prints: the end of the transcript and of the agent's log. */
  report(): string {
    const tail = (text: string, max: number) => (text.length > max ? `…${text.slice(-max)}` : text);
    return [
      `--- e2e wire transcript (last 100 lines) ---`,
      this.transcript.format(100),
      `--- e2e agent stderr (tail) ---`,
      tail(this.log(), 20_000),
    ].join("\n");
  }
}

export function agentEnv(
  api: ScriptedApi,
  sandbox: Sandbox,
  marker: string,
  extra: Record<string, string | undefined> = {},
): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    TMPDIR: sandbox.tmp,
    HOME: sandbox.home,
    CLAUDE_CONFIG_DIR: sandbox.configDir,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: "sk-test-dummy",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_MAX_RETRIES: "0",
    CLAUDE_AGENT_ACP_LOG: "debug",
    // One Claude process per session is enough for most tests; the spare has its own tests.
    CLAUDE_AGENT_ACP_PREWARM: "0",
    // The sandbox's folder is one the user works in: a test's project files load as they
    // always have. The workspace-trust tests remove this, to run as a fresh clone would.
    CLAUDE_AGENT_ACP_TRUST_ALL_FOLDERS: "1",
    [MARKER_VARIABLE]: marker,
    ...extra,
  };
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** Starts a run and (by default) initializes it. Stop it with `stop()` or `stopAllE2E()`. */
export async function startE2E(options: E2EOptions = {}): Promise<E2E> {
  requireBuiltAgent();
  const key = sharingKey(options);
  const shared = key === undefined ? undefined : takeShared<E2E>(key);
  if (shared) {
    await shared.nextTest(options);
    return shared;
  }
  const sandbox = await createSandbox();
  const api = await startScriptedApi(options.scenario ?? [], {
    cursor: options.cursor ?? "server",
  });
  const marker = randomUUID();
  let e2e: E2E;
  try {
    e2e = new E2E({
      api,
      sandbox,
      marker,
      env: agentEnv(api, sandbox, marker, options.env),
      options,
    });
  } catch (error) {
    await api.close();
    await sandbox.remove();
    throw error;
  }
  live.add(e2e);
  printReportIfTheTestFails(e2e);
  if (options.initialize !== false) {
    try {
      await e2e.initialize(options.clientCapabilities);
    } catch (error) {
      await e2e.stop();
      throw new Error(`initialize failed: ${String(error)}\n${e2e.report()}`, { cause: error });
    }
  }
  if (key !== undefined) e2e.share(key);
  return e2e;
}

/** Stops every run still live: `afterEach(stopAllE2E)`. */
export async function stopAllE2E(): Promise<void> {
  await Promise.all([...live].map((e2e) => e2e.stop()));
}

export function printReportIfTheTestFails(e2e: { report(): string }): void {
  try {
    onTestFailed(() => {
      process.stderr.write(`${e2e.report()}\n`);
    });
  } catch {
    // not inside a vitest test (e.g. a script): nothing to hook
  }
}
