// `claude-agent-acp connect`'s command line (connect.ts runs it).

export const CONNECT_COMMAND = "connect";

export const CONNECT_HELP = `Usage: claude-agent-acp connect --url URL --token-file F

Speaks ACP on stdin/stdout, as the agent does, and carries every message to the agent
served at URL (claude-agent-acp serve) and back: for ACP clients that start agents as
commands, such as Zed and acpx. ws:// or wss:// connect over WebSocket, http:// or
https:// over Streamable HTTP; a URL without a path gets /acp. Exits when either side ends.

  --url URL          the served agent
  --token-file F     its token: the file's first line
  -h, --help         show this help
`;

export type ParsedConnect =
  | { kind: "connect"; url: string; tokenFile: string }
  | { kind: "help" }
  | { kind: "error"; message: string };

export function parseConnectArguments(argv: readonly string[]): ParsedConnect {
  let url: string | undefined;
  let tokenFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return { kind: "help" };
    const value = argv[i + 1];
    if (arg !== "--url" && arg !== "--token-file") {
      return { kind: "error", message: `unknown argument: ${arg}` };
    }
    if (value === undefined) return { kind: "error", message: `${arg} needs a value` };
    i++;
    if (arg === "--url") url = value;
    else tokenFile = value;
  }
  if (url === undefined || tokenFile === undefined) {
    return { kind: "error", message: "connect needs --url and --token-file" };
  }
  return { kind: "connect", url, tokenFile };
}
