import { isIP } from "node:net";

/** The bin's first argument that serves on the network instead of stdio. */
export const SERVE_COMMAND = "serve";

/** How long a client may give no sign of life before its connection is dropped. */
export const DEFAULT_DROP_AFTER_SECONDS = 30;

/** How long a turn whose connection dropped goes on, waiting for a client to load it. */
export const DEFAULT_GRACE_SECONDS = 300;

export interface ServeOptions {
  host: string;
  /** 0: a free port, chosen at start. */
  port: number;
  tokenFile?: string;
  urlFile?: string;
  allowedOrigins: string[];
  graceMs: number;
  /** A client that gave no sign of life this long (http-liveness.ts, heartbeat.ts) is dropped. */
  dropAfterMs: number;
}

export type ParsedServe =
  { kind: "serve"; options: ServeOptions } | { kind: "help" } | { kind: "error"; message: string };

export const SERVE_HELP = `Usage: claude-agent-acp serve [--listen HOST:PORT] [--token-file F] [--url-file F]
                             [--allow-origin ORIGIN]... [--reconnect-grace SECONDS]
                             [--drop-after SECONDS]

Serves ACP (v1, and the v2 draft to a client that asks for it) over Streamable HTTP and
WebSocket on one port, at the path /acp: one agent per connection, the same agent the
stdio mode runs. Every request and upgrade must carry "Authorization: Bearer <token>".

  --listen HOST:PORT      where to listen (default 127.0.0.1:0; port 0 picks a free one);
                          IPv6 as [::1]:PORT. Anything but a loopback address needs
                          --token-file. TLS is a reverse proxy's job (see README.md)
  --token-file F          the token: the file's first line (at least 16 characters);
                          without it a new token is made and printed once on stderr
  --url-file F            also write the URL clients connect to into F
  --allow-origin ORIGIN   a browser origin allowed in (repeatable); a request whose
                          Origin is not listed is refused (default: none)
  --reconnect-grace SECONDS
                          a turn whose connection drops goes on this long; a client
                          that loads the session meanwhile gets it back, with any
                          permission request asked again (default: ${DEFAULT_GRACE_SECONDS}; 0: cancel it)
  --drop-after SECONDS    a client that held no event stream open (Streamable HTTP)
                          or answered no ping (WebSocket) this long is gone: its
                          connection is closed as dropped (default: ${DEFAULT_DROP_AFTER_SECONDS})
  -h, --help              show this help
`;

/** The `serve` command's arguments (those after `serve`). */
export function parseServeArguments(argv: readonly string[]): ParsedServe {
  let listen = "127.0.0.1:0";
  const options: Omit<ServeOptions, "host" | "port"> = {
    allowedOrigins: [],
    graceMs: DEFAULT_GRACE_SECONDS * 1000,
    dropAfterMs: DEFAULT_DROP_AFTER_SECONDS * 1000,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return { kind: "help" };
    const value = argv[i + 1];
    const takesValue = [
      "--listen",
      "--token-file",
      "--url-file",
      "--allow-origin",
      "--reconnect-grace",
      "--drop-after",
    ];
    if (!takesValue.includes(arg)) return { kind: "error", message: `unknown argument: ${arg}` };
    if (value === undefined || value.startsWith("--")) {
      return { kind: "error", message: `${arg} needs a value` };
    }
    i++;
    if (arg === "--listen") listen = value;
    else if (arg === "--token-file") options.tokenFile = value;
    else if (arg === "--url-file") options.urlFile = value;
    else if (arg === "--allow-origin") {
      const origin = originOf(value);
      if (!origin)
        return {
          kind: "error",
          message: `--allow-origin takes an origin such as https://example.com (got ${value})`,
        };
      options.allowedOrigins.push(origin);
    } else {
      const seconds = Number(value);
      if (!/^\d+$/.test(value) || !Number.isSafeInteger(seconds) || seconds > 86_400) {
        return { kind: "error", message: `${arg} takes whole seconds, at most 86400` };
      }
      if (arg === "--reconnect-grace") options.graceMs = seconds * 1000;
      else options.dropAfterMs = Math.max(1, seconds) * 1000;
    }
  }
  const address = parseListen(listen);
  if (!address) return { kind: "error", message: `--listen takes HOST:PORT (got ${listen})` };
  if (!isLoopback(address.host) && options.tokenFile === undefined) {
    return {
      kind: "error",
      message: `listening on ${address.host}, which is not a loopback address, needs --token-file: a token printed on a terminal is not one to use across a network`,
    };
  }
  return { kind: "serve", options: { ...options, ...address } };
}

function parseListen(value: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(value);
  if (!match) return undefined;
  const host = match[1] ?? match[2]!;
  const port = Number(match[3]);
  if (port > 65_535) return undefined;
  if (match[1] !== undefined && isIP(host) !== 6) return undefined;
  return { host, port };
}

/** Loopback: reachable from this machine alone. */
export function isLoopback(host: string): boolean {
  if (host === "localhost" || host === "::1") return true;
  return isIP(host) === 4 && host.startsWith("127.");
}

/** The origin a browser would send for `value`, or undefined if it is not one. */
function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    // An origin alone: a scheme, a host and a port, nothing after them.
    return url.origin !== "null" && url.href === `${url.origin}/` ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
