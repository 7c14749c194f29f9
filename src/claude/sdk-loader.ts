// The Claude Agent SDK is loaded on first use, not with the agent: compiling and running
// it blocks the event loop for a few hundred milliseconds, and nothing before a session
// starts needs it (initialize, session/new's answer). One load, shared by every caller.
import type * as Sdk from "@anthropic-ai/claude-agent-sdk";
import { mark } from "../runtime/marks.js";
import { loadSdkBundle } from "./sdk-bundle.js";

type ClaudeSdk = typeof Sdk;

let loading: Promise<ClaudeSdk> | undefined;
let loaded = false;

/** Whether the SDK has loaded: a query then starts its process at once. */
export function claudeSdkLoaded(): boolean {
  return loaded;
}

/** The SDK module; the first call starts loading it. */
export function claudeSdk(): Promise<ClaudeSdk> {
  loading ??= loadSdk();
  return loading;
}

async function loadSdk(): Promise<ClaudeSdk> {
  mark("claude-sdk-load");
  const sdk = loadSdkBundle() ?? (await import("@anthropic-ai/claude-agent-sdk"));
  mark("claude-sdk-loaded");
  loaded = true;
  return sdk;
}

/** How long after `initialize` the agent loads the SDK itself, if nothing has by then. */
export const SDK_PRELOAD_DELAY_MS = 250;

/**
 * Loads the SDK a moment after `initialize` when no request has needed it yet: every
 * session needs it, and the first should not wait for it (session/load shows nothing of a
 * conversation before it). Not at once, so that a session/new sent with `initialize`'s
 * answer is answered first; a load that fails is reported to the session that needs it.
 */
export function preloadClaudeSdk(delayMs = SDK_PRELOAD_DELAY_MS): void {
  const timer = setTimeout(() => void claudeSdk().catch(() => undefined), delayMs);
  timer.unref();
}
