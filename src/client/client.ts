// The ACP client: one session and its turns, and the keys while a turn runs. Its initialize
// is initialize.ts, what the agent asks is answered in answers.ts, what is typed meanwhile is
// kept in type-ahead.ts.
import {
  client,
  methods,
  type ClientApp,
  type ClientContext,
  type PromptResponse,
  type StopReason,
} from "@agentclientprotocol/sdk";
import { PROMPT_REQUIRED, STEERING_METHOD, type SteeringResponse } from "../acp/steering.js";
import {
  answerElicitation,
  answerPermission,
  TURN_CANCELLED,
  type AnswerContext,
  type Answerer,
} from "./answers.js";
import { cutPermissionRequest, cutUpdate } from "./incoming.js";
import { CLIENT_NAME, openSession } from "./initialize.js";
import type { KeySource } from "./input.js";
import { InteractiveAnswerer } from "./interactive.js";
import { isInterrupt, RESIZE, type Key } from "./keys.js";
import { PolicyAnswerer } from "./policy-answerer.js";
import type { AnswerPolicy } from "./policy.js";
import { Screen, type Output } from "./screen.js";
import { oneLine, type Style } from "./style.js";
import { errorText } from "./text-limits.js";
import { PastTurns, type PastIo, type PastTurn } from "./rewind.js";
import { TypeAhead } from "./type-ahead.js";
import { SessionView } from "./view/session-view.js";

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

/** Two Ctrl-Cs this close quit, even when the first ended the turn and the prompt is back. */
const QUIT_WINDOW_MS = 1_000;

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
  /** The turns run, with their ids: ↑ at the prompt, /rewind, Ctrl-R (rewind.ts). */
  private readonly past = new PastTurns();
  /** What the user types while a turn runs. */
  private readonly typeAhead: TypeAhead;

  constructor(
    private readonly io: ClientIo,
    private readonly options: ClientOptions,
  ) {
    const screen = new Screen(io.output, io.spinner);
    this.view = new SessionView(screen, io.style, options.cwd, options.home);
    this.typeAhead = new TypeAhead(this.view, (text) =>
      this.agent!.request<SteeringResponse>(STEERING_METHOD, {
        sessionId: this.requireSession(),
        prompt: [{ type: "text", text }],
        _meta: { steering: { idleBehavior: PROMPT_REQUIRED } },
      }),
    );
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
          const { update } = params;
          if (update.sessionUpdate === "agent_message_chunk" && update.messageId) {
            this.past.agentMessage(update.messageId);
          }
          this.view.update(cutUpdate(update));
        }
      })
      .onRequest(methods.client.session.requestPermission, ({ params, signal }) =>
        answerPermission(this.answerer, cutPermissionRequest(params), signal, this.turnSignal()),
      )
      .onRequest(methods.client.elicitation.create, ({ params, signal }) =>
        answerElicitation(this.answerer, this.view, params, signal, this.turnSignal()),
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
      const { typeAhead } = this;
      for (let next = await typeAhead.next(); next !== undefined; next = await typeAhead.next()) {
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
    const opened = await openSession(agent, this.view, this.options);
    this.typeAhead.steering = opened.steering;
    this.sessionId = opened.sessionId;
    if (this.options.mode) await this.setMode(this.options.mode);
  }

  /** Sends `session/set_mode`. */
  async setMode(modeId: string): Promise<void> {
    const sessionId = this.requireSession();
    await this.agent!.request(methods.agent.session.setMode, { sessionId, modeId });
    this.view.update({ sessionUpdate: "current_mode_update", currentModeId: modeId });
  }

  /**
   * One `session/prompt`, or with `edited` its turn run again with `text` (Ctrl-R on a
   * recalled prompt: session/edit_prompt); Ctrl-C or Esc while it runs cancels it.
   */
  async runTurn(text: string, edited?: PastTurn): Promise<StopReason | "error"> {
    const sessionId = this.requireSession();
    const turn = new AbortController();
    this.turn = turn;
    const { method, params } = this.past.request(sessionId, text, edited);
    const past = this.past.started(text, edited);
    this.view.startTurn(text);
    // The prompt goes on the wire first: keys typed ahead with it (a burst) may steer at once.
    const answer = this.agent!.request<PromptResponse>(method, params);
    this.io.keys?.setFallback((key) => this.keyWhileRunning(key, turn));
    this.typeAhead.show();
    try {
      const response = await answer;
      this.past.answered(past, response);
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
    this.typeAhead.key(key);
  }

  /**
   * Cancels the running turn: `session/cancel`, then every open request of the turn
   * answers `cancelled` (ACP: the client must answer them so).
   */
  cancelTurn(): void {
    const turn = this.turn;
    if (!turn || turn.signal.aborted || !this.agent || !this.sessionId) return;
    this.typeAhead.hold();
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
    view.note(
      "Type a prompt and press Enter. /mode <id> switches mode, /rewind goes back to a turn, ↑ then Ctrl-R runs a prompt again edited, /exit or Ctrl-D quits.",
    );
    view.note(
      this.typeAhead.steering
        ? "While Claude works, Enter sends what you type into the running turn; Tab queues it as the next prompt."
        : "While Claude works, Enter queues what you type as the next prompt.",
    );
    for (;;) {
      const next = await this.typeAhead.next();
      if (next !== undefined) {
        await this.runTurn(next);
        continue;
      }
      const draft = this.typeAhead.takeDraft();
      // A Ctrl-C that just interrupted the turn counts: the next one quits, as in Claude Code.
      const armed = Date.now() - this.interruptedAt < QUIT_WINDOW_MS;
      const held = this.typeAhead.heldPrompts();
      if (held.length > 0) {
        const what = held.length === 1 ? "1 queued prompt is" : `${held.length} queued prompts are`;
        view.note(`Interrupted: ${what} held. Enter sends them, Esc drops them.`);
      }
      const options = { armed, escapeCancels: held.length > 0, suggestion: view.suggestion };
      const input = await this.interactive!.readPrompt(draft, this.past.texts, options);
      if (input.action === "cancel" && held.length > 0) {
        this.typeAhead.drop();
        view.note("Held prompts dropped.");
        continue;
      }
      if (input.action !== "submit" && input.action !== "rerun") return;
      const text = input.text.trim();
      if (text === "/exit" || text === "/quit") return;
      if (held.length > 0) {
        // Enter sends the held prompts, then what was typed.
        this.typeAhead.release(text === "" ? undefined : text);
        continue;
      }
      if (text === "") continue;
      if (await this.past.command(input, text, this.pastIo())) continue;
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

  /** What /rewind and Ctrl-R ask and send through (rewind.ts). */
  private pastIo(): PastIo {
    return {
      choose: (title, labels) => this.interactive!.choose(title, labels),
      note: (text) => this.view.note(text),
      request: (method, params) => this.agent!.request(method, params),
      sessionId: this.requireSession(),
      runAgain: async (text, turn) => void (await this.runTurn(text, turn)),
    };
  }

  /** The running turn's signal: a request the user answers is withdrawn with the turn. */
  private turnSignal(): AbortSignal {
    return this.turn?.signal ?? this.idle;
  }

  private requireSession(): string {
    if (!this.agent || !this.sessionId) throw new Error("no session yet");
    return this.sessionId;
  }
}
