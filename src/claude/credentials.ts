// The credentials Claude Code would start a session with, read from where the installed CLI
// reads them, without starting it: its environment (and the `env` of the user's settings), the
// user's `apiKeyHelper`, its login in `.credentials.json` and its global config's account
// record and Console key. The order is the one `claude auth status` reports (checked against
// the CLI in tests/e2e/sessions/e2e-auth-status.test.ts). Never a secret or a part of one.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { isTruthy } from "../providers/provider-config.js";
import { cleanSingleLine } from "../util/text.js";
import { claudeConfigHome, globalConfigFile } from "./trust-store.js";

/** One credential Claude Code can use, for display: what it is and whose it is. */
export interface ClaudeCredential {
  kind: CredentialKind;
  label: string;
  /** False for a login whose token expired with no refresh token: a prompt would fail. */
  usable: boolean;
  name?: string;
  email?: string;
  organization?: string;
}

export type CredentialKind =
  | "bedrock"
  | "foundry"
  | "vertex"
  | "auth-token"
  | "api-key-helper"
  | "api-key"
  | "oauth-token"
  | "claude-login"
  | "console-key";

const THIRD_PARTY = [
  ["bedrock", "CLAUDE_CODE_USE_BEDROCK", "Amazon Bedrock"],
  ["foundry", "CLAUDE_CODE_USE_FOUNDRY", "Microsoft Foundry"],
  ["vertex", "CLAUDE_CODE_USE_VERTEX", "Google Vertex AI"],
] as const;

const SUBSCRIPTIONS: Record<string, string> = {
  pro: "Claude Pro",
  max: "Claude Max",
  team: "Claude Team",
  enterprise: "Claude Enterprise",
};

const settingsFile = z.looseObject({
  env: z.record(z.string(), z.unknown()).optional().catch(undefined),
  apiKeyHelper: z.string().optional().catch(undefined),
});
const loginRecord = z.looseObject({
  accessToken: z.string().optional().catch(undefined),
  refreshToken: z.string().optional().catch(undefined),
  expiresAt: z.number().optional().catch(undefined),
  subscriptionType: z.string().nullish().catch(undefined),
});
const credentialsFile = z.looseObject({
  claudeAiOauth: loginRecord.optional().catch(undefined),
});
const text = z.string().nullish().catch(undefined);
const globalConfigFileSchema = z.looseObject({
  primaryApiKey: text,
  oauthAccount: z
    .looseObject({ emailAddress: text, organizationName: text, displayName: text })
    .optional()
    .catch(undefined),
});

/** What the credentials are read from: the environment, and what the files say of them. */
export interface CredentialSources {
  env: Readonly<Record<string, string | undefined>>;
  /** The user's settings.json (its `env` applies as Claude Code's environment does). */
  settings?: z.infer<typeof settingsFile>;
  /** The Claude login of `.credentials.json` in Claude Code's config folder. */
  login?: z.infer<typeof loginRecord>;
  /** Claude Code's global config (`.claude.json`): its Console key and account record. */
  globalConfig?: z.infer<typeof globalConfigFileSchema>;
  /** A file that exists but could not be read: the credentials are not known for sure. */
  unreadable: boolean;
}

/** The credentials in Claude Code's order: the first usable one is what sessions use. */
export function credentialsOf(sources: CredentialSources, now = Date.now()): ClaudeCredential[] {
  const { settings, globalConfig: config, login } = sources;
  const settingsEnv = Object.fromEntries(
    Object.entries(settings?.env ?? {}).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
  // Claude Code applies the settings' `env` over its own environment.
  const env: Record<string, string | undefined> = { ...sources.env, ...settingsEnv };
  const set = (name: string) => (env[name]?.trim() ?? "") !== "";
  const found: ClaudeCredential[] = [];
  for (const [kind, variable, label] of THIRD_PARTY) {
    if (isTruthy(env[variable])) found.push({ kind, label, usable: true });
  }
  if (set("ANTHROPIC_AUTH_TOKEN")) {
    found.push({ kind: "auth-token", label: "Auth token (ANTHROPIC_AUTH_TOKEN)", usable: true });
  }
  if (settings?.apiKeyHelper?.trim()) {
    found.push({ kind: "api-key-helper", label: "API key helper (apiKeyHelper)", usable: true });
  }
  if (set("ANTHROPIC_API_KEY")) {
    found.push({ kind: "api-key", label: "Anthropic API key", usable: true });
  }
  if (set("CLAUDE_CODE_OAUTH_TOKEN")) {
    found.push({
      kind: "oauth-token",
      label: "Claude account token (CLAUDE_CODE_OAUTH_TOKEN)",
      usable: true,
    });
  }
  if (login?.accessToken) {
    const expired = login.expiresAt !== undefined && login.expiresAt <= now;
    const account = config?.oauthAccount;
    // The record is a file's text, shown to the client: one clean line each, or nothing.
    const shown = (value: string | null | undefined) => cleanSingleLine(value ?? "") || undefined;
    const [name, email, organization] = [
      shown(account?.displayName),
      shown(account?.emailAddress),
      shown(account?.organizationName),
    ];
    found.push({
      kind: "claude-login",
      label: SUBSCRIPTIONS[login.subscriptionType ?? ""] ?? "Claude account",
      // Claude Code refreshes an expired token itself when it holds a refresh token.
      usable: !expired || Boolean(login.refreshToken),
      ...(name ? { name } : {}),
      ...(email ? { email } : {}),
      ...(organization ? { organization } : {}),
    });
  }
  if (config?.primaryApiKey) {
    found.push({ kind: "console-key", label: "Anthropic Console API key", usable: true });
  }
  return found;
}

/**
 * What decides the credentials, to tell one set from another: the settings' `env` and
 * `apiKeyHelper`, the login record, the global config's Console key and account record. Not
 * the rest of those files, which Claude Code rewrites as it runs; not the environment, which
 * does not change while the agent runs.
 */
export function credentialSnapshot(sources: CredentialSources): string {
  const { settings, globalConfig: config } = sources;
  return JSON.stringify([
    settings?.env ?? null,
    settings?.apiKeyHelper ?? null,
    sources.login ?? null,
    config?.primaryApiKey ?? null,
    config?.oauthAccount ?? null,
  ]);
}

/** The files `readCredentialSources` reads, for a watcher. */
export async function credentialFiles(env: NodeJS.ProcessEnv): Promise<string[]> {
  const home = claudeConfigHome(env);
  return [
    join(home, "settings.json"),
    join(home, ".credentials.json"),
    await globalConfigFile(env),
  ];
}

/** Reads what `credentialsOf` needs; a missing file is no credential, not an error. */
export async function readCredentialSources(env: NodeJS.ProcessEnv): Promise<CredentialSources> {
  const [settingsPath, credentialsPath, configPath] = await credentialFiles(env);
  let unreadable = false;
  const json = async (path: string): Promise<unknown> => {
    let content: string;
    try {
      content = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") unreadable = true;
      return undefined;
    }
    try {
      return JSON.parse(content) as unknown;
    } catch {
      return undefined; // Claude Code reads a malformed file as none
    }
  };
  const [settings, credentials, globalConfig] = await Promise.all([
    json(settingsPath!),
    json(credentialsPath!),
    json(configPath!),
  ]);
  // Read once, here: what the files say of the credentials, and nothing else of them.
  return {
    env,
    settings: settingsFile.safeParse(settings ?? {}).data,
    login: credentialsFile.safeParse(credentials ?? {}).data?.claudeAiOauth,
    globalConfig: globalConfigFileSchema.safeParse(globalConfig ?? {}).data,
    unreadable,
  };
}
