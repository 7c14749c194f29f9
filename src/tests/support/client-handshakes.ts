import type { InitializeRequest } from "@agentclientprotocol/sdk";

/**
 * What real clients send in `initialize` (shared/reference/client-signals.md): a test that
 * replays one of these is a test against that client.
 */

/** The ACP registry's validator: terminal login only as `_meta["terminal-auth"]`. */
export const REGISTRY_VALIDATOR: InitializeRequest = {
  protocolVersion: 1,
  clientInfo: { name: "ACP Registry Validator", version: "1.0.0" },
  clientCapabilities: {
    terminal: true,
    fs: { readTextFile: true, writeTextFile: true },
    _meta: { terminal_output: true, "terminal-auth": true },
  },
};

/** The environment the validator runs the agent in: a temporary HOME, `TERM=dumb`, no API key. */
export const REGISTRY_VALIDATOR_ENV = {
  TERM: "dumb",
  ANTHROPIC_API_KEY: undefined,
  CLAUDE_CONFIG_DIR: undefined,
};

/** Current Zed. */
export const ZED: InitializeRequest = {
  protocolVersion: 1,
  clientInfo: { name: "zed", version: "0.230.0" },
  clientCapabilities: {
    fs: { readTextFile: true, writeTextFile: true },
    terminal: true,
    auth: { terminal: true },
    session: { configOptions: { boolean: {} } },
    _meta: { terminal_output: true, "terminal-auth": true },
  },
};

/** acpx 0.19 (the headless client), as it initializes: files and terminals, nothing in `_meta`. */
export const ACPX: InitializeRequest = {
  protocolVersion: 1,
  clientInfo: { name: "acpx", version: "0.19.1" },
  clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
};

/**
 * JetBrains AIR: its versioned extension as client-signals.md gives it, with the capabilities
 * the client declares itself (`clientInfo` stands in: the reference names none).
 */
export const AIR: InitializeRequest = {
  protocolVersion: 1,
  clientInfo: { name: "jetbrains-air", version: "1.0.0" },
  clientCapabilities: {
    fs: { readTextFile: true, writeTextFile: true },
    terminal: true,
    _meta: {
      terminal_output: true,
      jetbrains: { air: { version: 1, capabilities: ["sessionIndex", "loadReplayEnd"] } },
    },
  },
};
