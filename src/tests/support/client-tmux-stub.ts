// The terminal client in a real terminal (tmux) against a stub ACP agent, for the client's
// tmux test files: the built client (dist/client/index.js) and the stub agent
// (src/tests/support/client-stub-agent.ts, bundled once so each start is quick).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundledStubAgent } from "./client-stub-build.js";
import { Tmux } from "./tmux.js";

export const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const CLIENT = join(REPO, "dist", "client", "index.js");

const sessions: Tmux[] = [];

/** A tmux session that `stopClients` ends. */
export function trackedTmux(): Tmux {
  const tmux = new Tmux();
  sessions.push(tmux);
  return tmux;
}

/** Ends every tmux session started since the last call: `afterEach(stopClients)`. */
export async function stopClients(): Promise<void> {
  for (const tmux of sessions.splice(0)) await tmux.kill();
}

/** The built client's script (dist/client/index.js). */
export function builtClient(): string {
  if (!existsSync(CLIENT)) throw new Error(`${CLIENT} is missing: run \`npm run build\` first.`);
  return CLIENT;
}

export const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** The stub agent's command. */
export const STUB_AGENT = [process.execPath, bundledStubAgent()];

/** The client in tmux against the stub agent (or `agent`); no prompt: it asks for one. */
export async function startClient(
  columns = 100,
  prompts: string[] = [],
  agent: string[] = STUB_AGENT,
): Promise<Tmux> {
  const client = builtClient();
  const tmux = trackedTmux();
  const command = [
    "env",
    "-i",
    `PATH=${process.env.PATH ?? "/usr/bin:/bin"}`,
    "TERM=xterm-256color",
    "LANG=C.UTF-8",
    process.execPath,
    client,
    "--cwd",
    REPO,
    ...prompts,
    "--",
    ...agent,
  ];
  await tmux.start(
    `${command.map(quote).join(" ")}; echo "[client exited $?]"; sleep 600`,
    { columns, rows: 30 },
    REPO,
  );
  if (prompts.length === 0 && agent === STUB_AGENT) await tmux.waitFor(/Enter to send/);
  return tmux;
}

export const count = (text: string, part: string): number => text.split(part).length - 1;

/** Sends the stub's "slow" prompt (2 s; `slow5`: 5 s) and waits until its turn is running. */
export async function slowTurn(tmux: Tmux, prompt = "slow"): Promise<void> {
  await tmux.keys("-l", prompt);
  await tmux.keys("Enter");
  await tmux.waitFor(/esc to interrupt/);
}
