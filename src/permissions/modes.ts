import type { SessionMode } from "@agentclientprotocol/sdk";
import type { PermissionMode } from "../claude/types.js";

/**
 * The Claude permission modes, with Claude Code's labels. ACP mode ids are the SDK wire ids
 * (permission-extension.md, "Permission modes and bypass"); which of them a session offers
 * is session/configuration/modes.ts.
 */
export const MODE_CATALOG: Readonly<Record<PermissionMode, SessionMode>> = {
  default: { id: "default", name: "Manual", description: "Ask before edits and commands" },
  acceptEdits: {
    id: "acceptEdits",
    name: "Accept edits",
    description: "Edit files in the working directories without asking",
  },
  plan: { id: "plan", name: "Plan", description: "Explore and plan; no edits or commands" },
  auto: {
    id: "auto",
    name: "Auto",
    description: "A classifier approves safe actions; ask when it cannot decide",
  },
  bypassPermissions: {
    id: "bypassPermissions",
    name: "Bypass permissions",
    description: "Run everything without asking",
  },
  // Accepted from settings only; shown while it is the current mode.
  dontAsk: {
    id: "dontAsk",
    name: "Don't ask",
    description: "Deny anything not already allowed by rules",
  },
};

/** Every Claude permission mode (what a `setMode` suggestion may name), once. */
export const PERMISSION_MODES = Object.keys(MODE_CATALOG) as [PermissionMode, ...PermissionMode[]];

export function isPermissionMode(value: string): value is PermissionMode {
  return (PERMISSION_MODES as string[]).includes(value);
}
