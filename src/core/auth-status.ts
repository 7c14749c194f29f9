import { createHash } from "node:crypto";
import { existsSync, watch, type FSWatcher } from "node:fs";
import { dirname } from "node:path";
import {
  credentialFiles,
  credentialSnapshot,
  credentialsOf,
  readCredentialSources,
  type ClaudeCredential,
} from "../claude/credentials.js";
import { log } from "../logger.js";
import type { ProviderRouting } from "../providers/provider-config.js";

/** Whether a session can start as things stand (ACP's `AuthState`). */
export type AuthState = "authenticated" | "unauthenticated" | "unknown";

/** One credential, for display (ACP's `AuthAccount`). */
export interface AuthAccountInfo {
  label: string;
  active: boolean;
  name?: string;
  email?: string;
  organization?: string;
}

export interface AuthStatusInfo {
  state: AuthState;
  accounts: AuthAccountInfo[];
}

/** How long a burst of file events settles before the status is read again. */
const SETTLE_MS = 250;

const PROVIDER_LABELS = {
  anthropic: "LLM gateway",
  bedrock: "Amazon Bedrock",
  vertex: "Google Vertex AI",
} as const;

/** The provider a client set, as an account: where requests go, never its headers. */
function providerAccount(routing: ProviderRouting): AuthAccountInfo {
  let host = routing.baseUrl;
  try {
    host = new URL(routing.baseUrl).host;
  } catch {
    // a base URL that is no URL is shown as it is (it was validated when set)
  }
  return {
    label: `${PROVIDER_LABELS[routing.apiType]} (${host}, set by the client)`,
    active: true,
  };
}

function accountOf(credential: ClaudeCredential, active: boolean): AuthAccountInfo {
  const { label, name, email, organization } = credential;
  return {
    label,
    active,
    ...(name ? { name } : {}),
    ...(email ? { email } : {}),
    ...(organization ? { organization } : {}),
  };
}

/**
 * The agent's authentication status (`auth/status`), read from what Claude Code would use
 * (claude/credentials.ts) and the provider a client set, without starting Claude Code or
 * touching the network; and its changes (`auth/status_update`), told to one listener when
 * the status differs from the last one it was told.
 */
export class AuthStatus {
  private listener: ((status: AuthStatusInfo) => Promise<void> | void) | undefined;
  private lastTold: string | undefined;
  /** What the credentials were when a prompt was refused for them: they do not work. */
  private refusedWith: string | undefined;
  private watchers = new Map<string, FSWatcher>();
  private settle: NodeJS.Timeout | undefined;
  private reading: Promise<void> = Promise.resolve();

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    /** The provider a client set (providers/set, a gateway login), if any. */
    private readonly provider: () => ProviderRouting | undefined,
  ) {}

  /** After the changes already under way: an answer is never older than an update sent. */
  async current(): Promise<AuthStatusInfo> {
    await this.reading;
    return (await this.read()).status;
  }

  /** From now on `listener` hears each change; the status now is the first one it knows. */
  watch(listener: (status: AuthStatusInfo) => Promise<void> | void): Promise<void> {
    this.listener = listener;
    // In line with `changed`: a change asked for meanwhile is compared with this status.
    const watching = this.reading.then(async () => {
      this.lastTold = JSON.stringify((await this.read()).status);
      await this.rearm();
    });
    this.reading = watching.catch((error: unknown) => log.warn("auth status not read", error));
    return this.reading;
  }

  /** Stops watching (the client is gone). */
  stop(): void {
    this.listener = undefined;
    clearTimeout(this.settle);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  /** Something that may change the status happened: the listener hears it, if it did, first. */
  changed(): Promise<void> {
    const next = this.reading.then(async () => {
      // Watching what exists now (a login may have made the folder) before anyone hears.
      await this.rearm();
      const { status } = await this.read();
      const told = JSON.stringify(status);
      if (this.listener && told !== this.lastTold) {
        this.lastTold = told;
        // Sent before whatever answer waits on this change.
        await this.listener(status);
      }
    });
    this.reading = next.catch((error: unknown) => log.warn("auth status not read", error));
    return this.reading;
  }

  /** Claude Code refused a prompt's credentials: they stay refused until they change. */
  async refused(): Promise<void> {
    this.refusedWith = (await this.read()).fingerprint;
    await this.changed();
  }

  private async read(): Promise<{ status: AuthStatusInfo; fingerprint: string }> {
    const routing = this.provider();
    const sources = await readCredentialSources(this.env);
    // Only to tell one set of credentials from another: a digest, kept in memory.
    const fingerprint = createHash("sha256")
      .update(JSON.stringify([credentialSnapshot(sources), routing ?? null]))
      .digest("hex");
    const credentials = credentialsOf(sources);
    const inEffect = routing ? undefined : credentials.find((credential) => credential.usable);
    const accounts = [
      ...(routing ? [providerAccount(routing)] : []),
      ...credentials.map((credential) => accountOf(credential, credential === inEffect)),
    ];
    const state: AuthState =
      fingerprint === this.refusedWith
        ? "unauthenticated"
        : routing || inEffect
          ? "authenticated"
          : sources.unreadable
            ? "unknown"
            : "unauthenticated";
    return { status: { state, accounts }, fingerprint };
  }

  /**
   * Watches the folders of Claude Code's credential files (a login in a terminal writes
   * them), or the nearest folder above one that does not exist yet. No polling.
   */
  private async rearm(): Promise<void> {
    if (!this.listener) return;
    const folders = new Set<string>();
    for (const file of await credentialFiles(this.env)) {
      let folder = dirname(file);
      while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
      folders.add(folder);
    }
    for (const [folder, watcher] of this.watchers) {
      if (folders.has(folder)) continue;
      watcher.close();
      this.watchers.delete(folder);
    }
    for (const folder of folders) {
      if (this.watchers.has(folder)) continue;
      try {
        const watcher = watch(folder, { persistent: false }, () => this.settled());
        watcher.on("error", () => this.watchers.delete(folder));
        this.watchers.set(folder, watcher);
      } catch (error) {
        log.debug(`cannot watch ${folder} for logins`, error);
      }
    }
  }

  private settled(): void {
    clearTimeout(this.settle);
    this.settle = setTimeout(() => {
      void this.changed();
    }, SETTLE_MS);
    this.settle.unref();
  }
}
