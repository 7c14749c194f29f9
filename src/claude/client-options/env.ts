// The environment a client may give its session's Claude Code (`_meta.claudeCode.options.env`):
// an allowlist. Whatever the client sets is inherited by every command Claude Code runs, so a
// variable Claude Code does not read can still act (BASH_ENV, LD_PRELOAD, GIT_SSH_COMMAND).
// A variable is applied only when it is listed here: none can change where Claude Code reads
// settings or credentials, what program runs a command or starts with a shell, which host
// receives requests or keys, or how node loads code. Every one is also among those Claude Code
// itself applies from a project's settings before the user trusts the folder (the tests read
// that list, and every variable the installed Claude Code reads, from its binary).
import type { IgnoredOption, NotAppliedReason } from "./not-applied.js";

/** The variables a client may set, by what they change. */
export const ALLOWED_VARIABLES: ReadonlySet<string> = new Set([
  // Which model answers (the model option follows ANTHROPIC_MODEL).
  "ANTHROPIC_MODEL",
  "ANTHROPIC_SMALL_FAST_MODEL",
  "ANTHROPIC_DEFAULT_OPUS_MODEL",
  "ANTHROPIC_DEFAULT_SONNET_MODEL",
  "ANTHROPIC_DEFAULT_HAIKU_MODEL",
  "CLAUDE_CODE_SUBAGENT_MODEL",
  // Limits and timeouts.
  "API_TIMEOUT_MS",
  "BASH_DEFAULT_TIMEOUT_MS",
  "BASH_MAX_TIMEOUT_MS",
  "BASH_MAX_OUTPUT_LENGTH",
  "CLAUDE_CODE_MAX_OUTPUT_TOKENS",
  "CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS",
  "CLAUDE_CODE_MAX_RETRIES",
  "MAX_THINKING_TOKENS",
  "MAX_MCP_OUTPUT_TOKENS",
  "MCP_TIMEOUT",
  "MCP_TOOL_TIMEOUT",
  "MCP_CONNECT_TIMEOUT_MS",
  "SLASH_COMMAND_TOOL_CHAR_BUDGET",
  "TASK_MAX_OUTPUT_LENGTH",
  // Thinking, compaction and prompt caching.
  "CLAUDE_CODE_DISABLE_THINKING",
  "CLAUDE_CODE_DISABLE_ADAPTIVE_THINKING",
  "DISABLE_INTERLEAVED_THINKING",
  "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
  "CLAUDE_CODE_AUTO_COMPACT_WINDOW",
  "DISABLE_AUTO_COMPACT",
  "DISABLE_COMPACT",
  "DISABLE_PROMPT_CACHING",
  "DISABLE_PROMPT_CACHING_HAIKU",
  "DISABLE_PROMPT_CACHING_SONNET",
  "DISABLE_PROMPT_CACHING_OPUS",
  // Less sent: each only turns traffic off.
  "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",
  "DISABLE_TELEMETRY",
  "DISABLE_ERROR_REPORTING",
  "DO_NOT_TRACK",
  "DISABLE_AUTOUPDATER",
  "DISABLE_COST_WARNINGS",
  // Commands go back to the project's directory after each one.
  "CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR",
]);

/**
 * Why a variable that is not allowed is refused, for the client's notice: the first rule
 * that matches its name, else `unvetted` (true of every refused variable). The rules only
 * name what a variable is known to change; they decide nothing, the allowlist does.
 */
const REFUSALS: readonly (readonly [NotAppliedReason, RegExp])[] = [
  // The agent's own: its process and the SDK set them for every session.
  [
    "agent",
    /^(CLAUDECODE|CLAUDE_CODE_ENTRYPOINT|CLAUDE_AGENT_SDK_CLIENT_APP|CLAUDE_AGENT_SDK_VERSION|CLAUDE_CODE_ENABLE_TODO_TOOLS|CLAUDE_CODE_STARTUP_FAILURE_RESULTS)$/,
  ],
  // Certificates to trust, or none checked: another host could then read what is sent.
  [
    "host",
    /REJECT_UNAUTHORIZED|EXTRA_CA_CERTS|CA_BUNDLE|CA_CERT|SSL_CERT|SSL_CA|CERT_STORE|USE_SYSTEM_CA/,
  ],
  [
    "credentials",
    /API_KEY|AUTH_TOKEN|ACCESS_TOKEN|REFRESH_TOKEN|OAUTH|SECRET|PASSWORD|PASSPHRASE|_TOKEN$|_TOKEN_FILE|BEARER|CREDENTIAL|CLIENT_KEY|CLIENT_CERT|AUTH_SOCK|^AWS_PROFILE$/,
  ],
  [
    "permissions",
    /^(IS_SANDBOX|CLAUDE_CODE_SANDBOXED|CLAUDE_CODE_BUBBLEWRAP|SANDBOX_RUNTIME)$|DANGEROUS|PERMISSION|BYPASS|TRUST|AUTO_MODE|_SANDBOX_/,
  ],
  [
    "loader",
    /^(NODE|NODE_[A-Z0-9_]+|BUN_[A-Z0-9_]+|LD_[A-Z0-9_]+|DYLD_[A-Z0-9_]+|PYTHON[A-Z0-9_]*)$|_OPTIONS$/,
  ],
  [
    "shell",
    /^(SHELL|BASH_ENV|ENV|PATH|PATHEXT|CDPATH|ZDOTDIR|COMSPEC|EDITOR|VISUAL|PAGER|BROWSER|PROMPT_COMMAND|HISTFILE|IFS|CLAUDE_CODE_SHELL|CLAUDE_CODE_SHELL_PREFIX|CLAUDE_CODE_USE_POWERSHELL_TOOL|GIT_SSH_COMMAND|GIT_ASKPASS|GIT_EXEC_PATH)$|^GIT_CONFIG/,
  ],
  [
    "settings",
    /^(HOME|USERPROFILE|HOMEDRIVE|HOMEPATH|APPDATA|LOCALAPPDATA|TMPDIR|TMP|TEMP|GIT_DIR)$|^XDG_|CONFIG_DIR|CONFIG_FILE|CONFIG_HOME|_TMPDIR$|PLUGIN_DIRS?$/,
  ],
  [
    "host",
    /(_URL|_URI|_BASE|_HOST|_HOSTS|_ENDPOINT|_PORT|_SOCKET|_RESOURCE|_LOCATION|_PROJECT|_PROJECT_ID)$|ENDPOINT_URL|PROXY|_proxy$|^CLAUDE_CODE_USE_|CUSTOM_HEADERS|REGION|^OTEL_|ENABLE_TELEMETRY|TELEMETRY_BETA/,
  ],
];

/** Why `name`, which is not allowed, is refused. */
export function refusalOf(name: string): NotAppliedReason {
  return REFUSALS.find(([, pattern]) => pattern.test(name))?.[0] ?? "unvetted";
}

/** A variable's name as a shell writes it; anything else is refused as invalid. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,199}$/;

/** How a refused name is shown: only the characters a variable's name may have. */
function shownName(name: string): string {
  return name.slice(0, 100).replace(/[^A-Za-z0-9_]/g, "?");
}

/**
 * The client's environment as the session applies it: the allowed variables, and each
 * refused one with its reason. A value holding NUL is invalid: no process can be given it.
 */
export function readClientEnv(env: Readonly<Record<string, string>>): {
  env: Record<string, string>;
  ignored: IgnoredOption[];
} {
  const applied: Record<string, string> = {};
  const ignored: IgnoredOption[] = [];
  for (const [name, value] of Object.entries(env)) {
    const shown = `env.${shownName(name)}`;
    if (!VARIABLE_NAME.test(name) || value.includes("\0")) {
      ignored.push({ name: shown, reason: "invalid" });
    } else if (ALLOWED_VARIABLES.has(name)) {
      applied[name] = value;
    } else {
      ignored.push({ name: shown, reason: refusalOf(name) });
    }
  }
  return { env: applied, ignored };
}
