// The memory suite's direct-SDK baseline: a plain node process (sdk-memory-host.mjs) holding
// idle query() sessions, each started with the options the agent uses and one prompt.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { groupKiller, track, untrack } from "./cleanup.js";
import { REPO_ROOT } from "./paths.js";
import { allowAll, baselineOptions } from "./sdk-baseline.js";

const HOST = "bench/support/sdk-memory-host.mjs";

interface Reply {
  id?: number;
  ready?: boolean;
  result?: string;
  error?: string;
}

export class SdkMemoryHost {
  readonly pid: number;
  private nextId = 1;
  private readonly pending = new Map<number, (reply: Reply) => void>();
  private readonly ready: Promise<void>;
  private readonly exited: Promise<void>;
  private readonly kill: () => void;
  private readonly input: NodeJS.WritableStream;
  private stderr = "";

  constructor(private readonly env: Record<string, string>) {
    // detached: the host leads its own process group, so one kill reaches Claude Code too.
    const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [HOST], {
      cwd: REPO_ROOT,
      env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    if (child.pid === undefined) throw new Error("could not start the SDK memory host");
    this.pid = child.pid;
    this.kill = groupKiller(this.pid);
    track(this.kill);
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text: string) => (this.stderr = (this.stderr + text).slice(-10_000)));
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    let markReady: () => void = () => undefined;
    this.ready = new Promise((resolve, reject) => {
      markReady = resolve;
      void this.exited.then(() => reject(new Error(`the SDK memory host exited\n${this.stderr}`)));
    });
    createInterface({ input: child.stdout }).on("line", (line) => {
      const reply = JSON.parse(line) as Reply;
      if (reply.ready) markReady();
      if (reply.id !== undefined) this.pending.get(reply.id)?.(reply);
    });
    this.input = child.stdin;
  }

  /** Resolves once the host has loaded the SDK. */
  started(): Promise<void> {
    return this.ready;
  }

  /** An idle session: query() in `cwd`, one prompt, answered. */
  async open(cwd: string, prompt: string): Promise<void> {
    await this.ready;
    const id = this.nextId++;
    const reply = await new Promise<Reply>((resolve, reject) => {
      this.pending.set(id, resolve);
      void this.exited.then(() => reject(new Error(`the SDK memory host exited\n${this.stderr}`)));
      const options = baselineOptions(cwd, this.env, allowAll);
      this.input.write(`${JSON.stringify({ id, open: { options, prompt } })}\n`);
    });
    this.pending.delete(id);
    if (reply.result !== "success") {
      throw new Error(`an SDK session ended with ${reply.error ?? reply.result}`);
    }
  }

  async stop(): Promise<void> {
    this.input.end();
    const timer = setTimeout(this.kill, 3_000);
    await this.exited;
    clearTimeout(timer);
    this.kill();
    untrack(this.kill);
  }
}
