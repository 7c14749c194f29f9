/**
 * Local errors: typed, never sent as they are. acp/errors.ts converts each family to
 * its JSON-RPC error at the protocol edge.
 */

/** The most characters of a client's value an error gives back (a 10 MB cwd is not echoed). */
export const ECHO_LIMIT = 200;

/** A client's value as an error may quote it: cut to ECHO_LIMIT characters. */
export function echoed(value: string): string {
  return value.length > ECHO_LIMIT
    ? `${value.slice(0, ECHO_LIMIT)}… (${value.length} chars)`
    : value;
}

/** Error data with each string (also in arrays) cut by `echoed`. */
function echoedData(data: Record<string, unknown>): Record<string, unknown> {
  const cut = (value: unknown): unknown =>
    typeof value === "string"
      ? echoed(value)
      : Array.isArray(value)
        ? value.slice(0, 10).map(cut)
        : value;
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, cut(value)]));
}

/** The request is well-formed JSON-RPC but asks for something invalid. */
export class InvalidParamsError extends Error {
  override readonly name = "InvalidParamsError";
  readonly data?: Record<string, unknown>;
  constructor(message: string, data?: Record<string, unknown>) {
    super(message);
    if (data) this.data = echoedData(data);
  }
}

export class SessionNotFoundError extends Error {
  override readonly name = "SessionNotFoundError";
  readonly sessionId: string;
  constructor(sessionId: string) {
    super(`Session not found: ${echoed(sessionId)}`);
    this.sessionId = echoed(sessionId);
  }
}

/**
 * Claude Code has no usable credentials. The message is the reason; the wire error adds
 * what to do about it here (acp/auth.ts).
 */
export class AuthRequiredError extends Error {
  override readonly name = "AuthRequiredError";
  constructor(
    message: string,
    /** What failed (`{ error, kind }` when the API rejected the credentials). */
    readonly data?: Record<string, unknown>,
    /** The message already says what to do (terms to accept): the wire error adds nothing. */
    readonly saysWhatToDo = false,
  ) {
    super(message);
  }
}

/** The Anthropic API (or Claude Code on its behalf) failed the turn. */
export class ClaudeTurnError extends Error {
  override readonly name: string = "ClaudeTurnError";
  constructor(
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * The user's account ended the turn (a usage limit, billing, a hold, a verification): its
 * message is Claude Code's own sentence, sent as it is, and its data names the kind (and for
 * a usage limit, the reset). No internal error.
 */
export class ClaudeAccountError extends ClaudeTurnError {
  override readonly name = "ClaudeAccountError";
}

/** The Claude Code process ended while a turn was running. */
export class ClaudeProcessExitedError extends Error {
  override readonly name: string = "ClaudeProcessExitedError";
}

/**
 * The session's Claude Code process did not start (it exited, or did not report in time).
 * session/new has answered by then: the first prompt carries it.
 */
export class ClaudeStartError extends ClaudeProcessExitedError {
  override readonly name = "ClaudeStartError";
  constructor(
    message: string,
    /** What Claude Code said of the cause (`startupFailureReason`), when it named one. */
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** The Claude Code process stopped answering and was ended (see session/lifecycle/watchdog.ts). */
export class ClaudeNotRespondingError extends ClaudeProcessExitedError {
  override readonly name = "ClaudeNotRespondingError";
}

/** No Claude Code binary could be found; the message says what to install. */
export class ClaudeExecutableNotFoundError extends Error {
  override readonly name = "ClaudeExecutableNotFoundError";
}
