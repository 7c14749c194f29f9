import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  startScriptedApi,
  type Scenario,
  type ScriptedApi,
  type TurnSpec,
} from "../../../scripted-api/index.js";
import {
  agentEnv,
  createSandbox,
  killSurvivors,
  printReportIfTheTestFails,
  processesWithMarker,
  requireBuiltAgent,
  survivingProcesses,
  type MarkedProcess,
  type Sandbox,
  type StopReport,
} from "../e2e/index.js";
import { runAcpxCli, type AcpxResult } from "./cli.js";
import { JsonOutput } from "./json-output.js";
import { writeAgentLauncher } from "./launcher.js";

export interface AcpxOptions {
  /** The model turns the scripted API plays (default none: every turn answers "Done."). */
  scenario?: Scenario | TurnSpec[];
  /** Extra env of acpx, and so of the agent and Claude Code; `undefined` removes a default. */
  env?: Record<string, string | undefined>;
  /** The agent to run instead of the build's (an installed package's bin). */
  agentCommand?: string;
}

/** An `acpx exec` run in json format, its output parsed. */
export interface AcpxExec extends AcpxResult {
  output: JsonOutput;
}

/** A run of acpx that outlives this is killed (an exec takes about 3 s). */
const DEFAULT_TIMEOUT_MS = 20_000;
const live = new Set<Acpx>();

/**
 * acpx's CLI against the built agent, with the e2e harness's sandbox (HOME, so acpx's
 * ~/.acpx and config too, CLAUDE_CONFIG_DIR, cwd, TMPDIR), scripted API and agent env.
 * Each run starts its own agent and Claude Code, as acpx does.
 */
export class Acpx {
  readonly api: ScriptedApi;
  readonly home: string;
  /** acpx's --cwd: the session's working directory. */
  readonly cwd: string;
  /** Carried in the env of every process of this harness (acpx passes its env on). */
  readonly marker: string;
  /** The `claude-agent-acp` launcher acpx is given as --agent. */
  readonly launcher: string;
  readonly runs: AcpxResult[] = [];
  private readonly sandbox: Sandbox;
  private readonly env: NodeJS.ProcessEnv;
  private readonly logPath: string;
  private logText = "";
  private stopping: Promise<StopReport> | undefined;

  constructor(parts: {
    api: ScriptedApi;
    sandbox: Sandbox;
    marker: string;
    launcher: string;
    logPath: string;
    env: NodeJS.ProcessEnv;
  }) {
    this.api = parts.api;
    this.sandbox = parts.sandbox;
    this.home = parts.sandbox.home;
    this.cwd = parts.sandbox.cwd;
    this.marker = parts.marker;
    this.launcher = parts.launcher;
    this.logPath = parts.logPath;
    this.env = parts.env;
  }

  /**
   * `acpx --agent <launcher> --cwd <cwd> --format json ...flags exec <prompt>`. Flags come
   * after --format, so a flag may override it.
   */
  async exec(prompt: string, flags: string[] = [], timeoutMs?: number): Promise<AcpxExec> {
    const result = await this.run(
      [...this.agentFlags(), "--format", "json", ...flags, "exec", prompt],
      timeoutMs,
    );
    try {
      return { ...result, output: new JsonOutput(result.stdout) };
    } catch (error) {
      throw new Error(`acpx's json output did not parse: ${String(error)}\n${this.report()}`, {
        cause: error,
      });
    }
  }

  /** `--agent <launcher> --cwd <cwd>`: what every command of acpx against our agent takes. */
  agentFlags(): string[] {
    // acpx splits --agent as a command line: quoted, a path with spaces stays one word.
    return ["--agent", JSON.stringify(this.launcher), "--cwd", this.cwd];
  }

  /** acpx with exactly these arguments; recorded in `runs` and in the failure report. */
  async run(args: string[], timeoutMs = DEFAULT_TIMEOUT_MS): Promise<AcpxResult> {
    const result = await runAcpxCli({ args, env: this.env, cwd: this.sandbox.root, timeoutMs });
    this.runs.push(result);
    await this.readLog();
    return result;
  }

  /** The agents' stderr so far (their debug logs, with Claude Code's stderr). */
  agentLog(): string {
    return this.logText;
  }

  /** The live processes of this harness: acpx, the agent, Claude Code, their children. */
  processes(): Promise<MarkedProcess[]> {
    return processesWithMarker(this.marker);
  }

  /** Waits up to `timeoutMs` for this harness's processes to end; returns those still alive. */
  survivors(timeoutMs: number): Promise<MarkedProcess[]> {
    return survivingProcesses(this.marker, timeoutMs);
  }

  /** Kills what is left of the runs, closes the API, removes the sandbox. Idempotent. */
  stop(): Promise<StopReport> {
    this.stopping ??= this.teardown();
    return this.stopping;
  }

  private async teardown(): Promise<StopReport> {
    // Every run has ended (or was killed) before `run` returned: whatever is left is a leak.
    const survivors = await killSurvivors(this.marker, 2_000);
    await this.readLog();
    await this.api.close();
    await this.sandbox.remove();
    live.delete(this);
    return { survivors };
  }

  /** Kept in memory: the report is printed after the sandbox is gone. */
  private async readLog(): Promise<void> {
    this.logText = await readFile(this.logPath, "utf8").catch(() => this.logText);
  }

  /** What a failing test prints: each run's command, exit and output, then the agents' log. */
  report(): string {
    const tail = (text: string, max: number) => (text.length > max ? `…${text.slice(-max)}` : text);
    const runs = this.runs.map((run, index) =>
      [
        `--- acpx run ${index + 1}: ${run.args.join(" ")}`,
        `exit ${run.code ?? run.signal} after ${run.ms} ms${run.timedOut ? " (timed out, killed)" : ""}`,
        `--- stdout (tail) ---`,
        tail(run.stdout, 8_000),
        `--- stderr (tail) ---`,
        tail(run.stderr, 4_000),
      ].join("\n"),
    );
    return [...runs, `--- agent stderr (tail) ---`, tail(this.logText, 20_000)].join("\n");
  }
}

/** A sandbox, a scripted API and the launcher; nothing runs until `exec` or `run`. */
export async function startAcpx(options: AcpxOptions = {}): Promise<Acpx> {
  if (!options.agentCommand) requireBuiltAgent();
  const sandbox = await createSandbox();
  const api = await startScriptedApi(options.scenario ?? []);
  const marker = randomUUID();
  let acpx: Acpx;
  try {
    const logPath = join(sandbox.root, "agent.log");
    acpx = new Acpx({
      api,
      sandbox,
      marker,
      launcher: await writeAgentLauncher(join(sandbox.root, "bin"), logPath, options.agentCommand),
      logPath,
      env: agentEnv(api, sandbox, marker, options.env),
    });
  } catch (error) {
    await api.close();
    await sandbox.remove();
    throw error;
  }
  live.add(acpx);
  printReportIfTheTestFails(acpx);
  return acpx;
}

/** Stops every harness still live: `afterEach(stopAllAcpx)`. */
export async function stopAllAcpx(): Promise<void> {
  await Promise.all([...live].map((acpx) => acpx.stop()));
}
