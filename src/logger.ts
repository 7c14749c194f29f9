import { redact } from "./util/secrets.js";

/**
 * The one logger. stdout carries the protocol, so every diagnostic goes to stderr.
 * Level from CLAUDE_AGENT_ACP_LOG: error | warn | info | debug (default info).
 */

const LEVELS = ["error", "warn", "info", "debug"] as const;
export type LogLevel = (typeof LEVELS)[number];

function parseLevel(value: string | undefined): LogLevel {
  return LEVELS.find((level) => level === value) ?? "info";
}

let threshold = LEVELS.indexOf(parseLevel(process.env.CLAUDE_AGENT_ACP_LOG));

export function setLogLevel(level: LogLevel): void {
  threshold = LEVELS.indexOf(level);
}

function write(level: LogLevel, message: string, detail?: unknown): void {
  if (LEVELS.indexOf(level) > threshold) return;
  const suffix = detail === undefined ? "" : ` ${formatDetail(detail)}`;
  // Whatever a line quotes (Claude Code's stderr, an error), a secret held is not printed.
  process.stderr.write(`[claude-agent-acp] ${level}: ${redact(`${message}${suffix}`)}\n`);
}

function formatDetail(detail: unknown): string {
  if (detail instanceof Error) return detail.stack ?? detail.message;
  if (typeof detail === "string") return detail;
  try {
    return JSON.stringify(detail);
  } catch {
    return String(detail);
  }
}

export const log = {
  error: (message: string, detail?: unknown) => write("error", message, detail),
  warn: (message: string, detail?: unknown) => write("warn", message, detail),
  info: (message: string, detail?: unknown) => write("info", message, detail),
  debug: (message: string, detail?: unknown) => write("debug", message, detail),
};
