import { spawn } from "node:child_process";
import { z } from "zod";

/** How long `claude auth status` / `logout` may take. */
const AUTH_COMMAND_TIMEOUT_MS = 30_000;

interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(executable: string, args: string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), AUTH_COMMAND_TIMEOUT_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const status = z.looseObject({ loggedIn: z.boolean() });

/** Whether Claude Code has credentials (an API key, a login, a provider). */
export async function claudeLoggedIn(executable: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const result = await run(executable, ["auth", "status", "--json"], env);
  try {
    return status.parse(JSON.parse(result.stdout)).loggedIn;
  } catch {
    return false;
  }
}

/** Claude Code's own logout. */
export async function claudeLogout(executable: string, env: NodeJS.ProcessEnv): Promise<void> {
  const result = await run(executable, ["auth", "logout"], env);
  if (result.code !== 0) {
    throw new Error(`claude auth logout failed: ${result.stderr.trim() || `exit ${result.code}`}`);
  }
}

/**
 * Claude Code's interactive login, in this process's terminal, for a Claude account
 * (`claudeai`) or an Anthropic Console one (`console`). Resolves with its exit code.
 */
export function claudeLoginInTerminal(
  executable: string,
  env: NodeJS.ProcessEnv,
  account: "claudeai" | "console",
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, ["auth", "login", `--${account}`], { env, stdio: "inherit" });
    child.on("error", reject);
    child.on("close", (code) => resolve(code ?? 1));
  });
}
