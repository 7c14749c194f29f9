// The ACP client: capabilities, one session, turns, and the handlers for what the agent asks.
import {
  client,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type ClientApp,
  type ClientContext,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type StopReason,
} from "@agentclientprotocol/sdk";
import { PROMPT_REQUIRED, STEERING_METHOD, type SteeringResponse } from "../acp/steering.js";
import { PACKAGE_VERSION } from "../version.js";
import {
  elicitationResponse,
  permissionResponse,
  TURN_CANCELLED,
  type AnswerContext,
  type Answerer,
} from "./answers.js";
import { formFields } from "./form.js";
import { cutAgentInfo, cutModes, cutPermissionRequest, cutUpdate } from "./incoming.js";
import type { KeySource } from "./input.js";
import { InteractiveAnswerer } from "./interactive.js";
import { EMPTY_LINE, isInterrupt, lineKey, RESIZE, type Key, type LineState } from "./keys.js";
import { PolicyAnswerer } from "./policy-answerer.js";
import { layoutInput } from "./prompt-view.js";
import type { AnswerPolicy } from "./policy.js";
import { Screen, type Output } from "./screen.js";
import { SessionView } from "./view/session-view.js";
import { oneLine, type Style } from "./style.js";
import { cutField } from "./text-limits.js";
import { withLinkedSignal } from "../util/linked-signal.js";

export const CLIENT_NAME = "claude-agent-acp-client";

/** While a turn runs, this key queues the text as the next prompt (Enter steers). */
const QUEUE_KEY = "tab";

export interface ClientOptions {
  /** The session's working directory (absolute). */
  cwd: string;
  /** One turn each, in order; none: ask for prompts (interactive) or read stdin. */
  prompts: readonly string[];
  /** "interactive" asks at the terminal (needs `keys`). */
  answer: AnswerPolicy | "interactive";
  /** Sent with a rejection chosen by policy. */
  feedback?: string;
  /** `session/set_mode` right after `session/new`. */
  mode?: string;
  /** The agent's home directory: paths under it are shown as `~/…`. */
  home?: string;
  /** How long the agent may take to answer `initialize` (default 30 s). */
  initializeTimeoutMs?: number;
}

const INITIALIZE_TIMEOUT_MS = 30_000;
/** Two Ctrl-Cs this close quit, even when the first ended the turn and the prompt is back. */
const QUIT_WINDOW_MS = 1_000;

/** `promise`, or an error saying `what` after `ms`. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ClientIo {
  output: Output;
  style: Style;
  /** Draw a spinner (the output is a terminal). */
  spinner: boolean;
  /** The keyboard, when the user can answer. */
  keys?: KeySource;
  /** All of stdin, for a prompt piped in. */
  readStdin?: () => Promise<string>;
  /** Called on a second Ctrl-C while a turn is being cancelled. */
  forceQuit?: () => void;
}

/**
 * A terminal ACP client for one session. It advertises form elicitation, renders what the
 * agent streams, and answers permission requests and questions, interactively or by policy.
 */
export class TerminalClient {
  readonly view: SessionView;
  private readonly answerer: Answerer;
  private readonly interactive: InteractiveAnswerer | undefined;
  /** When a Ctrl-C last interrupted a turn. */
  private interruptedAt = -Infinity;
  private agent: ClientContext | undefined;
  private sessionId: string | undefined;
  private turn: AbortController | undefined;
  private readonly idle = new AbortController().signal;
  /** Prompts sent this session, oldest first (↑ at the prompt). */
  private readonly history: string[] = [];
  /** What is being typed while a turn runs: kept for the next prompt. */
  private draft: LineState = EMPTY_LINE;
  /** Prompts submitted while a turn ran: each the next turn's prompt, in order. */
  private readonly queued: string[] = [];
  /** The agent takes steers (`_meta.steering.supported` in its initialize response). */
  private steering = false;
  /** Steers not answered yet: one the agent hands back (the turn ended) becomes the next prompt. */
  private readonly steers = new Set<Promise<void>>();

  constructor(
    private readonly io: ClientIo,
    private readonly options: ClientOptions,
  ) {
    const screen = new Screen(io.output, io.spinner);
    this.view = new SessionView(screen, io.style, options.cwd, options.home);
    const context: AnswerContext = { view: this.view, cancelTurn: () => this.cancelTurn() };
    if (options.answer === "interactive") {
      if (!io.keys) throw new Error("interactive answers need a keyboard");
      this.interactive = new InteractiveAnswerer(context, io.keys);
      this.answerer = this.interactive;
    } else {
      this.answerer = new PolicyAnswerer(context, options.answer, options.feedback);
    }
  }

  /** The client-side handlers, ready to connect to an agent (a stream or an in-process app). */
  app(): ClientApp {
    return client({ name: CLIENT_NAME })
      .onNotification(methods.client.session.update, ({ params }) => {
        if (this.sessionId === undefined || params.sessionId === this.sessionId) {
          this.view.update(cutUpdate(params.update));
        }
      })
      .onRequest(methods.client.session.requestPermission, ({ params, signal }) =>
        this.onPermission(cutPermissionRequest(params), signal),
      )
      .onRequest(methods.client.elicitation.create, ({ params, signal }) =>
        this.onElicitation(params, signal),
      );
  }

  /** Initializes, opens the session and plays the turns; resolves with an exit code. */
  async run(agent: ClientContext): Promise<number> {
    this.agent = agent;
    const started = this.whileStarting();
    try {
      await this.start(agent);
    } finally {
      started();
    }
    let prompts = [...this.options.prompts];
    if (prompts.length === 0 && !this.interactive) {
      const piped = (await this.io.readStdin?.())?.trim();
      if (!piped) throw new Error("no prompt: give one as an argument or on stdin");
      prompts = [piped];
    }
    let failed = false;
    for (const prompt of prompts) {
      const result = await this.runTurn(prompt);
      if (result === "error") {
        failed = true;
        break;
      }
    }
    if (this.options.prompts.length === 0 && this.interactive) await this.promptLoop();
    else if (!failed) {
      // Prompts typed ahead during the given ones still run.
      for (let next = await this.nextQueued(); next !== undefined; next = await this.nextQueued()) {
        await this.runTurn(next);
      }
    }
    return failed ? 1 : 0;
  }

  /**
   * Until the session is open, Ctrl-C, Esc or Ctrl-D quits, and a line says so (an agent
   * that never answers would otherwise hold a blank screen). Returns the function that ends
   * it.
   */
  private whileStarting(): () => void {
    const { screen } = this.view;
    if (this.interactive) this.view.note("Starting the agent (Ctrl-C quits)");
    this.io.keys?.setFallback((key) => {
      if (key === RESIZE) screen.resized();
      else if (isInterrupt(key) || key.name === "escape" || (key.ctrl && key.name === "d")) {
        this.io.forceQuit?.();
      }
    });
    return () => this.io.keys?.setFallback(undefined);
  }

  /** initialize, then session/new (and the mode asked for). */
  private async start(agent: ClientContext): Promise<void> {
    const { view } = this;
    const timeout = this.options.initializeTimeoutMs ?? INITIALIZE_TIMEOUT_MS;
    const init = await within(
      agent.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        // Form elicitation: the agent may ask questions (AskUserQuestion) as forms.
        // terminal_output: a command's output arrives as it runs (shown live, see SessionView).
        clientCapabilities: { elicitation: { form: {} }, _meta: { terminal_output: true } },
        clientInfo: { name: CLIENT_NAME, version: PACKAGE_VERSION },
      }),
      timeout,
      `The agent did not answer initialize within ${timeout / 1000} s: is the command an ACP agent (speaking ACP on its stdin and stdout)?`,
    );
    this.steering = steeringSupported(init._meta);
    const info = cutAgentInfo(init.agentInfo);
    view.note(
      `Connected to ${info ? `${oneLine(info.title ?? info.name)} (${oneLine(info.name)} ${oneLine(info.version)})` : "the agent"}, ACP v${init.protocolVersion}`,
    );
    const session = await agent.request(methods.agent.session.new, {
      cwd: this.options.cwd,
      mcpServers: [],
    });
    this.sessionId = session.sessionId;
    const modes = cutModes(session.modes);
    view.setModes(modes);
    const mode = modes?.availableModes.find((m) => m.id === modes.currentModeId);
    view.note(`Session in ${this.options.cwd}${mode ? ` · mode: ${oneLine(mode.name)}` : ""}`);
    if (this.options.mode) {
      const offered = session.modes?.availableModes.map((m) => m.id) ?? [];
      if (!offered.includes(this.options.mode)) {
        const shown = view.availableModes().map((m) => oneLine(m.id));
        throw new Error(
          shown.length
            ? `No mode "${oneLine(this.options.mode)}": this agent offers ${shown.join(", ")}`
            : `No mode "${oneLine(this.options.mode)}": this agent offers no modes`,
        );
      }
      await this.setMode(this.options.mode);
    }
  }

  /** Sends `session/set_mode`. */
  async setMode(modeId: string): Promise<void> {
    const sessionId = this.requireSession();
    await this.agent!.request(methods.agent.session.setMode, { sessionId, modeId });
    this.view.update({ sessionUpdate: "current_mode_update", currentModeId: modeId });
  }

  /** One `session/prompt`; Ctrl-C or Esc while it runs cancels it. */
  async runTurn(text: string): Promise<StopReason | "error"> {
    const sessionId = this.requireSession();
    const turn = new AbortController();
    this.turn = turn;
    if (this.history.at(-1) !== text) this.history.push(text);
    this.view.startTurn(text);
    this.io.keys?.setFallback((key) => this.keyWhileRunning(key, turn));
    this.showDraft();
    try {
      const response = await this.agent!.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text }],
      });
      this.view.endTurn({ stopReason: response.stopReason });
      return response.stopReason;
    } catch (error) {
      this.view.endTurn({ error: errorText(error) });
      return "error";
    } finally {
      this.turn = undefined;
      this.io.keys?.setFallback(undefined);
      this.view.screen.setDraft([]);
    }
  }

  /**
   * A key while a turn runs and no box is open: Esc or Ctrl-C interrupts (Ctrl-C again while
   * cancelling quits); anything else edits the text, which Enter steers into the running turn
   * (queues, when the agent cannot steer) and Tab queues as the next prompt.
   */
  private keyWhileRunning(key: Key, turn: AbortController): void {
    if (key === RESIZE) {
      this.view.screen.resized();
      return;
    }
    if (isInterrupt(key) || key.name === "escape") {
      if (turn.signal.aborted && isInterrupt(key)) this.io.forceQuit?.();
      else {
        if (isInterrupt(key)) this.interruptedAt = Date.now();
        this.cancelTurn();
      }
      return;
    }
    const queue = key.name === QUEUE_KEY && !key.paste;
    const step = queue
      ? { state: this.draft, action: "submit" as const }
      : lineKey(this.draft, key);
    this.draft = step.state;
    if (step.action === "submit") {
      const text = this.draft.text.trim();
      if (text !== "") {
        if (queue || !this.steering) this.queued.push(text);
        else this.trackSteer(this.steer(text));
      }
      this.draft = EMPTY_LINE;
    }
    this.showDraft();
  }

  /**
   * Sends `text` into the running turn (`_session/steering`). If the turn has just ended, the
   * agent hands it back (`promptRequired`) and it becomes the next prompt; so does a steer
   * the agent refuses.
   */
  private async steer(text: string): Promise<void> {
    this.view.note(`› ${oneLine(text)} (sent to the running turn)`);
    try {
      const response = await this.agent!.request<SteeringResponse>(STEERING_METHOD, {
        sessionId: this.requireSession(),
        prompt: [{ type: "text", text }],
        _meta: { steering: { idleBehavior: PROMPT_REQUIRED } },
      });
      if (response.outcome !== "promptRequired") return;
    } catch (error) {
      this.view.note(`Could not steer the turn (${errorText(error)}): queued as the next prompt.`);
    }
    this.queued.push(text);
    this.showDraft();
  }

  private trackSteer(steer: Promise<void>): void {
    this.steers.add(steer);
    void steer.finally(() => this.steers.delete(steer));
  }

  /** The next queued prompt, once every steer in flight is answered (one may come back). */
  private async nextQueued(): Promise<string | undefined> {
    while (this.steers.size > 0) await Promise.all(this.steers);
    return this.queued.shift();
  }

  /** The type-ahead under the status line: queued prompts, then the text being typed. */
  private showDraft(): void {
    const width = this.view.screen.width;
    const queued = this.queued.map((text) => `⏵ queued: ${text.replace(/\s+/g, " ")}`);
    const typing =
      this.draft.text === "" ? [] : layoutInput("› ", this.draft, Math.max(8, width - 1)).rows;
    this.view.screen.setDraft([...queued, ...typing]);
  }

  /**
   * Cancels the running turn: `session/cancel`, then every open request of the turn
   * answers `cancelled` (ACP: the client must answer them so).
   */
  cancelTurn(): void {
    const turn = this.turn;
    if (!turn || turn.signal.aborted || !this.agent || !this.sessionId) return;
    this.view.interrupt();
    this.view.note("Cancelling the turn…");
    this.agent
      .notify(methods.agent.session.cancel, { sessionId: this.sessionId })
      .catch(() => undefined);
    turn.abort(TURN_CANCELLED);
  }

  close(): void {
    this.view.flush();
    this.view.screen.close();
  }

  private async promptLoop(): Promise<void> {
    const { view } = this;
    view.note("Type a prompt and press Enter. /mode <id> switches mode, /exit or Ctrl-D quits.");
    view.note(
      this.steering
        ? "While Claude works, Enter sends what you type into the running turn; Tab queues it as the next prompt."
        : "While Claude works, Enter queues what you type as the next prompt.",
    );
    for (;;) {
      const next = await this.nextQueued();
      if (next !== undefined) {
        await this.runTurn(next);
        continue;
      }
      const draft = this.draft.text;
      this.draft = EMPTY_LINE;
      // A Ctrl-C that just interrupted the turn counts: the next one quits, as in Claude Code.
      const armed = Date.now() - this.interruptedAt < QUIT_WINDOW_MS;
      const input = await this.interactive!.readPrompt(draft, this.history, armed);
      if (input.action !== "submit") return;
      const text = input.text.trim();
      if (text === "") continue;
      if (text === "/exit" || text === "/quit") return;
      const mode = /^\/mode\s+(\S+)$/.exec(text);
      if (mode) {
        await this.setMode(mode[1]!).catch((error: unknown) =>
          view.note(`Could not set the mode: ${errorText(error)}`),
        );
        continue;
      }
      if (text === "/mode") {
        view.note(
          `Modes: ${view
            .availableModes()
            .map((m) => `${oneLine(m.id)} (${oneLine(m.name)})`)
            .join(", ")}`,
        );
        continue;
      }
      await this.runTurn(text);
    }
  }

  private async onPermission(
    request: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse> {
    const decision = await this.whileRequested(signal, (linked) =>
      this.answerer.permission(request, linked),
    );
    // Withdrawn while the user was choosing ($/cancel_request): only `cancelled` is honest.
    if (signal.aborted) return { outcome: { outcome: "cancelled" } };
    return permissionResponse(decision);
  }

  private async onElicitation(
    request: CreateElicitationRequest,
    signal: AbortSignal,
  ): Promise<CreateElicitationResponse> {
    if (request.mode !== "form") {
      // We advertised form mode only.
      throw RequestError.invalidParams(
        { mode: request.mode },
        "Only form elicitation is supported.",
      );
    }
    const { fields, unknown } = formFields(request.requestedSchema);
    if (unknown.length > 0) {
      this.view.note(
        `A form asked for fields this client cannot show (${unknown.map((key) => oneLine(cutField(key))).join(", ")}): declined.`,
      );
      return { action: "decline" };
    }
    const toolCallId =
      "toolCallId" in request && typeof request.toolCallId === "string"
        ? request.toolCallId
        : undefined;
    const decision = await this.whileRequested(signal, (linked) =>
      this.answerer.form(cutField(request.message), fields, toolCallId, linked),
    );
    if (signal.aborted) return { action: "cancel" };
    return elicitationResponse(decision);
  }

  /**
   * Answers with a signal that fires when the agent withdraws the request or our turn is
   * cancelled.
   */
  private whileRequested<T>(
    signal: AbortSignal,
    answer: (linked: AbortSignal) => Promise<T>,
  ): Promise<T> {
    return withLinkedSignal([signal, this.turn?.signal ?? this.idle], answer);
  }

  private requireSession(): string {
    if (!this.agent || !this.sessionId) throw new Error("no session yet");
    return this.sessionId;
  }
}

/** `_meta.steering.supported` of an initialize response. */
export function steeringSupported(meta: unknown): boolean {
  if (typeof meta !== "object" || meta === null) return false;
  const steering: unknown = (meta as Record<string, unknown>).steering;
  return (
    typeof steering === "object" &&
    steering !== null &&
    (steering as Record<string, unknown>).supported === true
  );
}

/** An error's message, as one field (an agent's error may be megabytes long). */
export function errorText(error: unknown): string {
  if (error instanceof Error) return cutField(error.message);
  if (typeof error === "object" && error !== null && "message" in error) {
    return cutField(String(error.message));
  }
  return cutField(String(error));
}
