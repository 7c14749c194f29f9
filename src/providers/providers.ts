import { holdSecrets } from "../util/secrets.js";
import {
  API_TYPES,
  BEARER,
  environmentRouting,
  PROVIDER_ID,
  type ApiType,
  type ProviderConfig,
  type ProviderRouting,
} from "./provider-config.js";
import { listGatewayModels, type GatewayModel } from "./gateway-models.js";

/** One provider of a listing (ACP's `ProviderInfo`). */
export interface ProviderListing {
  providerId: string;
  supported: ApiType[];
  required: boolean;
  current: ProviderRouting;
}

/** What `set` keeps: the provider, and the models its gateway lists (if it lists any). */
export interface ProviderChoice {
  config: ProviderConfig;
  models?: readonly GatewayModel[] | undefined;
}

/**
 * The provider this agent's sessions use: the client's choice (`providers/set`, a gateway
 * login) or, without one, what the agent's environment says. Held in memory only: its
 * headers are secrets, kept out of every log line and error (util/secrets.ts).
 */
export class Providers {
  private choice: ProviderChoice | undefined;
  private changing: Promise<void> = Promise.resolve();

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** The client's provider, if it set one. */
  get current(): ProviderChoice | undefined {
    return this.choice;
  }

  list(): ProviderListing[] {
    const routing = this.choice
      ? { apiType: this.choice.config.apiType, baseUrl: this.choice.config.baseUrl }
      : environmentRouting(this.env);
    // Not required: `disable` returns to the environment's provider.
    return [
      { providerId: PROVIDER_ID, supported: [...API_TYPES], required: false, current: routing },
    ];
  }

  /**
   * The client's provider from now on. A gateway's model listing is asked for first, so
   * the sessions it applies to offer its models. Changes apply one after another, in the
   * order asked: the last one asked for holds.
   */
  set(config: ProviderConfig): Promise<void> {
    // A bearer header's token goes to Claude Code alone (claude/provider-env.ts): both kept.
    const values = Object.values(config.headers);
    holdSecrets([...values, ...values.flatMap((value) => BEARER.exec(value)?.[1] ?? [])]);
    return this.change(async () => {
      const models = await listGatewayModels(config);
      this.choice = { config, ...(models ? { models } : {}) };
    });
  }

  /** Back to the environment's provider. */
  disable(): Promise<void> {
    return this.change(() => {
      this.choice = undefined;
      return Promise.resolve();
    });
  }

  private change(apply: () => Promise<void>): Promise<void> {
    const changed = this.changing.then(apply);
    this.changing = changed.catch(() => undefined);
    return changed;
  }
}
