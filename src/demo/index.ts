#!/usr/bin/env node
// npm run demo: the whole product offline in one command (see README.md next to this file).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isAnswerPolicy, ANSWER_POLICIES, type AnswerPolicy } from "../client/policy.js";
import { runTerminalClient } from "../client/run.js";
import { colorWanted, createStyle } from "../client/style.js";
import { startScriptedApi, toolResults, type ScriptedApi } from "../scripted-api/index.js";
import { createDemoSandbox, offlineEnv, type DemoSandbox } from "./project.js";
import { DEMO_PROMPT, demoScenario } from "./scenario.js";

const AGENT_ENTRY = fileURLToPath(new URL("../index.js", import.meta.url));

const HELP = `Usage: npm run demo -- [--answer <policy>] [--keep] [--no-color]
       npm run demo -- --live [prompt]

Plays a Claude Code session offline: a scripted model stands in for Claude, while the agent
(dist/index.js), Claude Code and the terminal client (claude-agent-acp-client) are real. It
runs in a temporary project with a temporary HOME and CLAUDE_CONFIG_DIR: your ~/.claude is
never read or written. Claude reads a file, proposes an edit, runs npm test, asks a question
and presents a plan; you answer each request.

Options:
  --answer <policy>  answer without asking: ${ANSWER_POLICIES.join(" | ")}
                     (default: ask on a terminal, else allow-always)
  --keep             keep the temporary project (its path is printed at the end)
  --no-color         no colours
  --live [prompt]    run the same client against real Claude (needs ANTHROPIC_API_KEY) in
                     the current directory, with your own Claude Code settings
  -h, --help         show this help
`;

interface DemoArgs {
  answer: AnswerPolicy | undefined;
  keep: boolean;
  live: boolean;
  color: boolean | undefined;
  prompt: string[];
}

function parse(argv: readonly string[]): DemoArgs | { error: string } | "help" {
  const args: DemoArgs = {
    answer: undefined,
    keep: false,
    live: false,
    color: undefined,
    prompt: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-h" || arg === "--help") return "help";
    else if (arg === "--keep") args.keep = true;
    else if (arg === "--live") args.live = true;
    else if (arg === "--no-color") args.color = false;
    else if (arg === "--answer") {
      const policy = argv[++i];
      if (policy === undefined || !isAnswerPolicy(policy)) {
        return { error: `--answer takes one of: ${ANSWER_POLICIES.join(", ")}` };
      }
      args.answer = policy;
    } else if (arg.startsWith("-")) return { error: `unknown option ${arg}` };
    else args.prompt.push(arg);
  }
  if (args.prompt.length > 0 && !args.live) return { error: "a prompt is only taken with --live" };
  return args;
}

async function readText(path: string): Promise<string | undefined> {
  return readFile(path, "utf8").catch(() => undefined);
}

/** What the session left on disk, and what the test run said: the demo's proof. */
async function epilogue(sandbox: DemoSandbox, api: ScriptedApi, color: boolean): Promise<string[]> {
  const style = createStyle(color);
  const math = await readText(join(sandbox.project, "math.js"));
  const fixed = math?.includes("return a + b;") === true;
  const settingsText = await readText(join(sandbox.project, ".claude", "settings.local.json"));
  let rules: string[] = [];
  try {
    const settings = JSON.parse(settingsText ?? "{}") as { permissions?: { allow?: unknown } };
    const allow = settings.permissions?.allow;
    rules = Array.isArray(allow) ? allow.filter((r): r is string => typeof r === "string") : [];
  } catch {
    rules = [];
  }
  const testResult = api.requests
    .flatMap((request) => toolResults(request))
    .find((result) => result.tool_use_id === "toolu_demo_test");
  const ran = testResult !== undefined && /> node test\.js/.test(testResult.text);
  const passed = ran && !testResult.is_error;
  const plans = api.requests
    .flatMap((request) => toolResults(request))
    .some((result) => /plans\/[^\s]+\.md/.test(result.text));
  const row = (name: string, value: string): string => `  ${style.bold(name.padEnd(30))}${value}`;
  return [
    "",
    style.bold("What happened on disk"),
    row(
      "math.js",
      fixed ? style.green("fixed: return a + b;") : style.yellow("unchanged: return a - b;"),
    ),
    row(
      "npm test",
      ran
        ? passed
          ? style.green("ran, passed")
          : style.yellow("ran, failed")
        : style.yellow("did not run"),
    ),
    row(
      ".claude/settings.local.json",
      rules.length
        ? style.green(`allow ${rules.join(", ")} (the durable "don't ask again" rule)`)
        : style.dim('no rule ("don\'t ask again" was not chosen)'),
    ),
    row(
      "plan file",
      plans ? "written under the temporary CLAUDE_CONFIG_DIR/plans/" : style.dim("none"),
    ),
    "",
  ];
}

async function offline(args: DemoArgs, tty: boolean): Promise<number> {
  const color = args.color ?? colorWanted(process.stdout.isTTY === true, process.env);
  const style = createStyle(color);
  const answer = args.answer ?? (tty ? undefined : "allow-always");
  const sandbox = await createDemoSandbox();
  // However the demo ends (its terminal closed, an error), the temporary project goes too.
  if (!args.keep) process.on("exit", () => sandbox.removeNow());
  const api = await startScriptedApi(
    demoScenario({
      project: sandbox.project,
      configDir: sandbox.configDir,
      paced: tty && !args.answer,
    }),
  );
  try {
    const code = await runTerminalClient(
      { stdin: process.stdin, stdout: process.stdout },
      {
        agentCommand: [process.execPath, AGENT_ENTRY],
        agentEnv: offlineEnv(api.url, sandbox),
        cwd: sandbox.project,
        home: sandbox.home,
        prompts: [DEMO_PROMPT],
        answer,
        color,
        banner: [
          style.bold("claude-agent-acp demo (offline)"),
          style.dim(
            "A scripted model plays Claude; the agent, Claude Code and this ACP client are real.",
          ),
          style.dim(
            `Project: ${sandbox.project} (temporary, with its own HOME and CLAUDE_CONFIG_DIR)`,
          ),
          style.dim(
            answer
              ? `Answers: --answer ${answer}`
              : "You answer: ↑/↓ or 1-9 to choose, Enter to confirm, Esc to cancel, Ctrl-C to stop.",
          ),
        ],
      },
    );
    const lines = await epilogue(sandbox, api, color);
    if (args.keep) lines.push(`Kept the demo project: ${sandbox.project}`, "");
    else
      lines.push(
        style.dim("Try it against real Claude: ANTHROPIC_API_KEY=… npm run demo -- --live"),
        "",
      );
    process.stdout.write(lines.join("\n"));
    return code;
  } finally {
    await api.close();
    if (!args.keep) await sandbox.remove();
  }
}

async function live(args: DemoArgs): Promise<number> {
  if (!process.env.ANTHROPIC_API_KEY) {
    process.stderr.write(
      "--live needs ANTHROPIC_API_KEY (it runs real Claude in this directory).\n",
    );
    return 2;
  }
  return runTerminalClient(
    { stdin: process.stdin, stdout: process.stdout },
    {
      agentCommand: [process.execPath, AGENT_ENTRY],
      agentEnv: process.env,
      cwd: process.cwd(),
      prompts: args.prompt.length ? [args.prompt.join(" ")] : [],
      answer: args.answer,
      ...(args.color !== undefined ? { color: args.color } : {}),
    },
  );
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parse(argv);
  if (args === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  if ("error" in args) {
    process.stderr.write(`demo: ${args.error}\n\n${HELP}`);
    return 2;
  }
  const tty = process.stdin.isTTY === true && process.stdout.isTTY === true;
  return args.live ? live(args) : offline(args, tty);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `demo: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
