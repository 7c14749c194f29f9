/**
 * Local errors: typed, never sent as they are. acp/errors.ts converts each family to
 * its JSON-RPC error at the protocol edge.
 */

/** The request is well-formed JSON-RPC but asks for something invalid. */
export class InvalidParamsError extends Error {
  override readonly name = "InvalidParamsError";
  constructor(
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export class SessionNotFoundError extends Error {
  override readonly name = "SessionNotFoundError";
  constructor(readonly sessionId: string) {
    super(`Session not found: ${sessionId}`);
  }
}

/** Claude Code has no usable credentials. */
export class AuthRequiredError extends Error {
  override readonly name = "AuthRequiredError";
}

/** The Anthropic API (or Claude Code on its behalf) failed the turn. */
export class ClaudeTurnError extends Error {
  override readonly name = "ClaudeTurnError";
  constructor(
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** The Claude Code process ended while a turn was running. */
export class ClaudeProcessExitedError extends Error {
  override readonly name = "ClaudeProcessExitedError";
}

/** No Claude Code binary could be found; the message says what to install. */
export class ClaudeExecutableNotFoundError extends Error {
  override readonly name = "ClaudeExecutableNotFoundError";
}
