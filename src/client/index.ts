#!/usr/bin/env node
// claude-agent-acp-client: a terminal ACP client (see README.md next to this file).
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { PACKAGE_VERSION } from "../version.js";
import { HELP, parseArgs } from "./args.js";
import { readToken } from "./agent/remote-agent.js";
import { runTerminalClient } from "./run.js";
import { errorText } from "./text-limits.js";

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseArgs(argv);
  switch (parsed.kind) {
    case "help":
      process.stdout.write(HELP);
      return 0;
    case "version":
      process.stdout.write(`${PACKAGE_VERSION}\n`);
      return 0;
    case "error":
      process.stderr.write(`claude-agent-acp-client: ${parsed.message}\n\n${HELP}`);
      return 2;
    case "run": {
      const { args } = parsed;
      const cwd = resolve(args.cwd ?? process.cwd());
      if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
        process.stderr.write(`claude-agent-acp-client: --cwd ${cwd}: no such directory\n`);
        return 2;
      }
      let remote: { url: string; token: string } | undefined;
      if (args.url !== undefined) {
        try {
          remote = { url: args.url, token: await readToken(args.tokenFile!) };
        } catch (error) {
          process.stderr.write(`claude-agent-acp-client: ${errorText(error)}\n`);
          return 2;
        }
      }
      return runTerminalClient(
        { stdin: process.stdin, stdout: process.stdout },
        {
          agentCommand: args.agentCommand,
          ...(remote ? { remote } : {}),
          agentEnv: process.env,
          cwd,
          home: homedir(),
          prompts: args.prompts,
          answer: args.answer,
          ...(args.feedback !== undefined ? { feedback: args.feedback } : {}),
          ...(args.mode !== undefined ? { mode: args.mode } : {}),
          ...(args.color !== undefined ? { color: args.color } : {}),
        },
      );
    }
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`claude-agent-acp-client: ${String(error)}\n`);
    process.exit(1);
  },
);
