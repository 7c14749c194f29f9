import { z } from "zod";
import { log } from "../logger.js";
import { GATEWAY_TOKEN, hasCredentials, type ProviderConfig } from "./provider-config.js";

/** A model a gateway serves, as Anthropic's models endpoint names it. */
export interface GatewayModel {
  id: string;
  displayName: string;
}

/** A listing slower than this is given up: the picker keeps Claude Code's list. */
const LISTING_TIMEOUT_MS = 5_000;
const PAGE_SIZE = 1000;
const MAX_PAGES = 10;
const ANTHROPIC_VERSION = "2023-06-01";

const modelsPage = z.object({
  data: z.array(z.looseObject({ id: z.string().min(1), display_name: z.string().nullish() })),
  has_more: z.boolean().nullish(),
  last_id: z.string().nullish(),
});

/**
 * The models an Anthropic-protocol gateway lists at `GET /v1/models`, asked with the
 * provider's headers; undefined when it lists none (another status, another shape, no
 * answer in time), and the picker then keeps Claude Code's list. Header values are never
 * logged: a failure names the status only.
 */
export async function listGatewayModels(
  config: ProviderConfig,
  timeoutMs = LISTING_TIMEOUT_MS,
): Promise<GatewayModel[] | undefined> {
  if (config.apiType !== "anthropic") return undefined;
  const signal = AbortSignal.timeout(timeoutMs);
  // Asked as Claude Code asks: with the gateway's credentials, else the placeholder token.
  const headers = {
    ...(hasCredentials(config.headers) ? {} : { authorization: `Bearer ${GATEWAY_TOKEN}` }),
    ...config.headers,
    "anthropic-version": ANTHROPIC_VERSION,
  };
  const models: GatewayModel[] = [];
  let after: string | undefined;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const url = new URL(`${config.baseUrl.replace(/\/+$/, "")}/v1/models`);
      url.searchParams.set("limit", String(PAGE_SIZE));
      if (after) url.searchParams.set("after_id", after);
      const response = await fetch(url, { headers, signal });
      if (!response.ok) {
        log.info(
          `the gateway lists no models (HTTP ${response.status}); Claude Code's are offered`,
        );
        return undefined;
      }
      const parsed = modelsPage.safeParse(await response.json());
      if (!parsed.success) {
        log.info(
          "the gateway's model listing is not Anthropic's; Claude Code's models are offered",
        );
        return undefined;
      }
      for (const model of parsed.data.data) {
        models.push({ id: model.id, displayName: model.display_name || model.id });
      }
      if (!parsed.data.has_more || !parsed.data.last_id) break;
      after = parsed.data.last_id;
    }
  } catch (error) {
    log.info(
      `the gateway's models could not be listed (${error instanceof Error ? error.name : "error"}); Claude Code's are offered`,
    );
    return undefined;
  }
  return models.length ? models : undefined;
}
