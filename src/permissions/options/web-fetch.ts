import { stringField } from "../../tools/input.js";
import { allowOnce, allowWithUpdates, reject, type OptionBuilder } from "../choices.js";
import { labels } from "../labels.js";
import { localAllowRule } from "./generated.js";

/** The host of an http(s) URL, or undefined for anything we could not state exactly. */
export function fetchHostname(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
    return parsed.hostname || undefined;
  } catch {
    return undefined;
  }
}

/** WebFetch: one-time allow; a generated `domain:<hostname>` local rule; reject. */
export const webFetchOptions: OptionBuilder = (ask) => {
  const host = fetchHostname(stringField(ask.input, "url"));
  const rule = host ? localAllowRule(ask.toolName, `domain:${host}`) : undefined;
  return [
    allowOnce(),
    ...(host && rule ? [allowWithUpdates(labels.dontAskAgainFor(host), rule)] : []),
    reject(),
  ];
};
