import { RequestError } from "@agentclientprotocol/sdk";
import {
  AuthRequiredError,
  ClaudeExecutableNotFoundError,
  ClaudeAccountError,
  ClaudeProcessExitedError,
  ClaudeTurnError,
  InvalidParamsError,
  SessionNotFoundError,
} from "../errors.js";
import { log } from "../logger.js";
import { redact, redactValue } from "../util/secrets.js";
import { cleanMultiline } from "../util/text.js";
import { authRequiredMessage } from "./auth.js";

/**
 * The one place a local error becomes a wire error. Unknown errors are internal. No secret
 * the agent holds is echoed (a gateway's error may quote the token it refused).
 */
export function toRequestError(error: unknown): RequestError {
  const wire = wireError(error);
  const message = redact(wire.message);
  const data = redactValue(wire.data);
  return message === wire.message && data === wire.data
    ? wire
    : new RequestError(wire.code, message, data);
}

function wireError(error: unknown): RequestError {
  if (error instanceof RequestError) return error;
  if (error instanceof InvalidParamsError) {
    return RequestError.invalidParams(error.data, error.message);
  }
  if (error instanceof SessionNotFoundError) {
    return RequestError.sessionNotFound(error.sessionId);
  }
  // The messages below are Claude Code's (and the API's, through it): cleaned as any text
  // from Claude is before a client shows it.
  if (error instanceof AuthRequiredError) {
    const message = cleanMultiline(error.message);
    return RequestError.authRequired(
      error.data,
      error.saysWhatToDo ? message : authRequiredMessage(message),
    );
  }
  // Claude Code's sentence is the whole message: it is no internal error.
  if (error instanceof ClaudeAccountError) {
    return new RequestError(-32603, cleanMultiline(error.message), error.data);
  }
  if (
    error instanceof ClaudeTurnError ||
    error instanceof ClaudeProcessExitedError ||
    error instanceof ClaudeExecutableNotFoundError
  ) {
    const data = "data" in error ? error.data : undefined;
    return RequestError.internalError(data, cleanMultiline(error.message));
  }
  log.error("unexpected error", error);
  return RequestError.internalError(
    undefined,
    error instanceof Error ? error.message : String(error),
  );
}

/** Wraps a handler so whatever it throws reaches the client as a proper JSON-RPC error. */
export function withRequestErrors<A extends unknown[], R>(
  handler: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      throw toRequestError(error);
    }
  };
}
