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
