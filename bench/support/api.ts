// Starts the scripted API process (api-process.ts) and reads its URL.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { REPO_ROOT } from "./paths.js";
import { track, untrack } from "./cleanup.js";

export interface ApiProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startApiProcess(): Promise<ApiProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", "bench/support/api-process.ts"],
    { cwd: REPO_ROOT, stdio: ["pipe", "pipe", "pipe"] },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error("could not start the scripted API process");
  const kill = (): void => {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  track(kill);
  let stderr = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (text: string) => (stderr += text));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`scripted API did not start:\n${stderr}`)),
      30_000,
    );
    lines.once("line", (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { url: string }).url);
    });
    void exited.then(() => reject(new Error(`scripted API exited:\n${stderr}`)));
  });
  return {
    url,
    pid,
    stop: async () => {
      untrack(kill);
      child.stdin?.end();
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2_000))]);
      kill();
    },
  };
}
