import { isLoginMethod } from "../acp/auth.js";
import { claudeLoggedIn, claudeLogout } from "../claude/auth-commands.js";
import { gatewayModelInfos, providerLaunch } from "../claude/provider-env.js";
import { AuthRequiredError, echoed, InvalidParamsError } from "../errors.js";
import type { ProviderConfig } from "../providers/provider-config.js";
import { Providers, type ProviderListing } from "../providers/providers.js";
import { isModelId } from "../session/configuration/model-ids.js";
import type { SessionRegistry } from "../session/registry.js";
import { AuthStatus } from "./auth-status.js";
import type { AgentDependencies } from "./dependencies.js";

/**
 * The accounts Claude Code runs under: the provider a client set (providers/set, a gateway
 * login), which decides where its requests go, and Claude Code's own login, checked after a
 * terminal login and logged out; and what of them is in effect (auth-status.ts), told again
 * after each change made here.
 */
export class Accounts {
  private readonly providers: Providers;
  readonly status: AuthStatus;

  constructor(
    private readonly deps: Pick<AgentDependencies, "env" | "resolveExecutable">,
    /** The open sessions: a provider change reroutes them. */
    private readonly sessions: SessionRegistry,
    /** Starts a spare Claude Code process for the next session/new (opening.ts). */
    private readonly warmUp: () => void,
  ) {
    this.providers = new Providers(deps.env);
    this.status = new AuthStatus(deps.env, () => {
      const config = this.providers.current?.config;
      return config && { apiType: config.apiType, baseUrl: config.baseUrl };
    });
  }

  /** The provider the client set, by its routing (never its headers), for the model cache. */
  providerKey(): string | undefined {
    const config = this.providers.current?.config;
    return config && `${config.apiType} ${config.baseUrl}`;
  }

  /** The models the provider's gateway lists, as the picker offers them: model ids only. */
  providerModels() {
    const models = this.providers.current?.models?.filter((model) => isModelId(model.id));
    return models?.length ? gatewayModelInfos(models) : undefined;
  }

  /** How Claude Code starts for the provider the client set (none: as the agent's env says). */
  provider() {
    return providerLaunch(this.providers.current?.config, this.deps.env);
  }

  /** Each method is a login the client ran in a terminal; here it is only checked. */
  async authenticate(methodId: string): Promise<void> {
    const { deps } = this;
    if (!isLoginMethod(methodId)) {
      throw new InvalidParamsError(`Unknown auth method "${echoed(methodId)}".`, { methodId });
    }
    const loggedIn = await claudeLoggedIn(deps.resolveExecutable(), deps.env);
    await this.status.changed();
    if (!loggedIn) throw new AuthRequiredError("Claude Code is not logged in yet");
  }

  /** Claude Code's logout; a provider the client set (its headers are credentials) goes first. */
  async logout(): Promise<void> {
    if (this.providers.current) await this.disableProvider();
    try {
      await claudeLogout(this.deps.resolveExecutable(), this.deps.env);
    } finally {
      await this.status.changed();
    }
  }

  /** `providers/list`: where requests go now, without the headers. */
  listProviders(): ProviderListing[] {
    return this.providers.list();
  }

  /**
   * `providers/set` (and a gateway login): sessions opened from now on use the provider,
   * open ones from their next turn (providers/providers.ts).
   */
  async setProvider(config: ProviderConfig): Promise<void> {
    await this.providers.set(config);
    await this.providerChanged();
  }

  /** `providers/disable`: back to the agent's environment, for new and open sessions. */
  async disableProvider(): Promise<void> {
    await this.providers.disable();
    await this.providerChanged();
  }

  private async providerChanged(): Promise<void> {
    await this.status.changed();
    const provider = this.provider();
    const models = this.providerModels();
    for (const session of this.sessions.all()) session.reroute(provider, models);
    // A spare started for the old provider would serve no session now.
    this.warmUp();
  }
}
