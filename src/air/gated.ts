import { RequestError } from "@agentclientprotocol/sdk";
import { withRequestErrors } from "../acp/errors.js";

/**
 * The handler of an AIR method that only a client which declared its capability may call: any
 * other gets "method not found", as for a method this agent does not have.
 */
export function gated<P, R>(
  method: string,
  allowed: () => boolean,
  handler: (params: P) => Promise<R>,
) {
  return withRequestErrors(({ params }: { params: P }): Promise<R> => {
    if (!allowed()) throw RequestError.methodNotFound(method);
    return handler(params);
  });
}
