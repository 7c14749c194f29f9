// node dist/scripted-api/cli.js [--port N] [--cursor session] <scenario.json>
// Prints ANTHROPIC_BASE_URL=... on stdout (one line, for scripts), logs requests on stderr.
import { parseArgs } from "node:util";
import { loadScenarioFile } from "./scenario.js";
import { startScriptedApi } from "./server.js";
import type { RecordedRequest } from "./types.js";

const USAGE = `Usage: scripted-api [--port N] [--cursor server|session] <scenario.json>

Serves an Anthropic Messages API double on 127.0.0.1 that answers main-loop requests
with the scenario's turns in order. Prints ANTHROPIC_BASE_URL=<url> on stdout.
  --port N          listen port (default 0: any free port)
  --cursor session  one script position per x-claude-code-session-id (default: server)
  --help            show this help
`;

function describe(r: RecordedRequest): string {
  const step = r.kind === "main" ? (r.fallback ? " fallback" : ` step=${r.step}`) : "";
  const session = r.sessionId ? ` session=${r.sessionId.slice(0, 8)}` : "";
  return `#${r.index} ${r.method} ${r.path} ${r.kind}${step}${r.subagent ? " subagent" : ""}${session}\n`;
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        port: { type: "string" },
        cursor: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  const cursor = values.cursor ?? "server";
  const file = positionals[0];
  if (
    !Number.isInteger(port) ||
    port < 0 ||
    port > 65535 ||
    (cursor !== "server" && cursor !== "session") ||
    !file ||
    positionals.length > 1
  ) {
    process.stderr.write(USAGE);
    return 2;
  }
  const scenario = await loadScenarioFile(file);
  const api = await startScriptedApi(scenario, {
    port,
    cursor,
    onRequest: (r) => process.stderr.write(describe(r)),
  });
  process.stdout.write(`ANTHROPIC_BASE_URL=${api.url}\n`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await api.close();
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
