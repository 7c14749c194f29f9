/**
 * Live capability audits: run the real Claude Code through the Claude Agent SDK's
 * `query()` with a recording `canUseTool`, and keep every call it makes. By default the
 * model is the scripted API; with `CLAUDE_AGENT_ACP_LIVE_AUDIT=1` and `ANTHROPIC_API_KEY`
 * the live variants talk to the real Anthropic API instead.
 */
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  query,
  type McpServerConfig,
  type Options,
  type PermissionMode,
  type PermissionResult,
  type SDKMessage,
  type SDKUserMessage,
} from "@anthropic-ai/claude-agent-sdk";
import { resolveClaudeExecutable } from "../../../claude/executable.js";
import type { CanUseToolContext } from "../../../claude/types.js";
import { startScriptedApi, type ScriptedApi, type TurnSpec } from "../../../scripted-api/index.js";
import { claudeEnvironment } from "../../../claude/environment.js";
import { killSurvivors, MARKER_VARIABLE } from "../e2e/processes.js";

/** Live variants run only when both are set; the scripted variants always run. */
export const LIVE_AUDIT =
  process.env.CLAUDE_AGENT_ACP_LIVE_AUDIT === "1" && !!process.env.ANTHROPIC_API_KEY;

/**
 * The third argument of `canUseTool` without its signal, with the fields the CLI sends
 * beyond the SDK's declared type (`decisionReasonType`, `serverPolicyAskOnly`, ...).
 */
export type RecordedContext = Omit<CanUseToolContext, "signal"> & {
  decisionReasonType?: string;
  requiresUserInteraction?: boolean;
  [field: string]: unknown;
};

/** One `canUseTool` call as Claude Code made it (everything but the abort signal). */
export interface RecordedAsk {
  toolName: string;
  input: Record<string, unknown>;
  context: RecordedContext;
}

export interface AuditDirs {
  /** Holds everything; removed afterwards. */
  root: string;
  home: string;
  configDir: string;
  cwd: string;
  /** A directory outside the cwd (and outside HOME) for "outside" paths. */
  outside: string;
}

export interface AuditOptions {
  /** The model's turns for the scripted variant; absent for a live run. */
  scenario?: (dirs: AuditDirs) => TurnSpec[];
  /** The user prompt (a live run's only way to steer the model). */
  prompt: string | ((dirs: AuditDirs) => string);
  permissionMode?: PermissionMode;
  /** Answers each ask (default: allow once, input unchanged). */
  answer?: (ask: RecordedAsk) => PermissionResult;
  /** Adds to (or, with undefined, removes from) Claude Code's env. */
  env?: Record<string, string | undefined>;
  /** Files to create first, keyed by absolute path. */
  files?: (dirs: AuditDirs) => Record<string, string>;
  mcpServers?: (dirs: AuditDirs) => Record<string, McpServerConfig>;
  disallowedTools?: string[];
  allowBypass?: boolean;
  /** Whole-run limit (default 25 s scripted, 120 s live). */
  timeoutMs?: number;
}

export interface AuditRun {
  asks: RecordedAsk[];
  messages: SDKMessage[];
  dirs: AuditDirs;
  /** The scripted API (undefined when live). */
  api: ScriptedApi | undefined;
  /** Claude Code's stderr. */
  stderr: string;
}

const allowOnce = (ask: RecordedAsk): PermissionResult => ({
  behavior: "allow",
  updatedInput: ask.input,
});

async function createDirs(): Promise<AuditDirs> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "claude-agent-acp-audit-")));
  const dirs: AuditDirs = {
    root,
    home: join(root, "home"),
    configDir: join(root, "home", ".claude"),
    cwd: join(root, "cwd"),
    outside: join(root, "outside"),
  };
  await mkdir(dirs.configDir, { recursive: true });
  await mkdir(dirs.cwd);
  await mkdir(dirs.outside);
  return dirs;
}

/** The harness's env (support/e2e/harness.ts), plus the agent's own Claude defaults. */
function claudeEnv(
  dirs: AuditDirs,
  api: ScriptedApi | undefined,
  marker: string,
  extra: Record<string, string | undefined> = {},
): Record<string, string> {
  const model = api
    ? { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "sk-test-dummy" }
    : {
        ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY,
        ANTHROPIC_BASE_URL: process.env.ANTHROPIC_BASE_URL,
      };
  const env = claudeEnvironment({
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    TMPDIR: process.env.TMPDIR,
    HOME: dirs.home,
    CLAUDE_CONFIG_DIR: dirs.configDir,
    ...model,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_MAX_RETRIES: api ? "0" : undefined,
    [MARKER_VARIABLE]: marker,
    ...extra,
  });
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** A prompt stream that stays open until `close()`: `canUseTool` needs streaming input. */
function promptStream(text: string): { stream: AsyncIterable<SDKUserMessage>; close(): void } {
  let release: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (release = resolve));
  async function* stream(): AsyncGenerator<SDKUserMessage> {
    yield {
      type: "user",
      message: { role: "user", content: [{ type: "text", text }] },
      parent_tool_use_id: null,
    };
    await closed;
  }
  return { stream: stream(), close: release };
}

/**
 * Runs one conversation to its first `result` and returns every `canUseTool` call.
 * Scripted unless `options.scenario` is undefined (a live run against the real API).
 */
export async function runAudit(options: AuditOptions): Promise<AuditRun> {
  const dirs = await createDirs();
  const api = options.scenario ? await startScriptedApi(options.scenario(dirs)) : undefined;
  const marker = randomUUID();
  const asks: RecordedAsk[] = [];
  const messages: SDKMessage[] = [];
  let stderr = "";
  const prompt = promptStream(
    typeof options.prompt === "string" ? options.prompt : options.prompt(dirs),
  );
  const abort = new AbortController();
  const limit = options.timeoutMs ?? (api ? 25_000 : 120_000);
  const timer = setTimeout(() => abort.abort(), limit);
  try {
    for (const [path, content] of Object.entries(options.files?.(dirs) ?? {})) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content);
    }
    const sdkOptions: Options = {
      cwd: dirs.cwd,
      permissionMode: options.permissionMode ?? "default",
      mcpServers: options.mcpServers?.(dirs) ?? {},
      // As the agent does (src/claude/sdk-query.ts): servers ride in the initialize request.
      mcpServersDelivery: "initialize",
      disallowedTools: options.disallowedTools ?? [],
      ...(options.allowBypass ? { allowDangerouslySkipPermissions: true } : {}),
      systemPrompt: { type: "preset", preset: "claude_code" },
      settingSources: ["user", "project", "local"],
      pathToClaudeCodeExecutable: resolveClaudeExecutable(),
      env: claudeEnv(dirs, api, marker, options.env),
      abortController: abort,
      stderr: (data) => {
        stderr += data;
      },
      canUseTool: (toolName, input, context) => {
        const { signal: _signal, ...rest } = context;
        const ask: RecordedAsk = {
          toolName,
          input: structuredClone(input),
          context: structuredClone(rest),
        };
        asks.push(ask);
        return Promise.resolve((options.answer ?? allowOnce)(ask));
      },
    };
    const q = query({ prompt: prompt.stream, options: sdkOptions });
    try {
      for await (const message of q) {
        messages.push(message);
        if (message.type === "result") break;
      }
    } finally {
      prompt.close();
      q.close();
    }
    if (abort.signal.aborted) {
      throw new Error(`the audit conversation did not finish within ${limit} ms\n${stderr}`);
    }
    return { asks, messages, dirs, api, stderr };
  } finally {
    clearTimeout(timer);
    await killSurvivors(marker, 2_000);
    await api?.close();
    await rm(dirs.root, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
  }
}
