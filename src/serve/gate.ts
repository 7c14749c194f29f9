import type { IncomingHttpHeaders } from "node:http";
import { bearerMatches } from "./token.js";

/** The one path clients reach the agent at (the transport RFD's endpoint). */
export const ACP_PATH = "/acp";

/** Who may come in: the token, and the browser origins allowed besides none. */
export interface Admission {
  token: string;
  allowedOrigins: readonly string[];
}

/** Why a request is turned away, as the HTTP status it gets (with nothing else said). */
export type Refusal = 401 | 403 | 404;

/**
 * Whether a request or an upgrade may reach the agent. A browser sends `Origin`; one not
 * allowed is refused, so a page the user visits cannot use a token the browser holds. No
 * token, or a wrong one: 401. Another path: 404. The token is checked first, so nothing
 * about the server is told to one who lacks it.
 */
export function refusal(
  request: { url?: string | undefined; headers: IncomingHttpHeaders },
  admission: Admission,
): Refusal | undefined {
  if (!bearerMatches(request.headers.authorization, admission.token)) return 401;
  const origin = request.headers.origin;
  if (origin !== undefined && !admission.allowedOrigins.includes(origin)) return 403;
  if (pathOf(request.url) !== ACP_PATH) return 404;
  return undefined;
}

function pathOf(url: string | undefined): string {
  const path = (url ?? "/").split("?", 1)[0]!;
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}
