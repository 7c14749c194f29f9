// The end-to-end harness: see README.md next to this file.
export { startE2E, stopAllE2E } from "./harness.js";
export { shareAgents } from "./shared-agents.js";
export type { E2E, E2EOptions, StopReport } from "./harness.js";
export type { PermissionPolicy, PermissionRecord } from "./permissions.js";
export type { Direction, WireEntry, WireMessage } from "./transcript.js";
export type { ReceivedUpdate, UpdateKind, UpdateOf } from "./updates.js";
export type { MarkedProcess } from "./processes.js";
export { processesWithMarker, MARKER_VARIABLE } from "./processes.js";
export { AGENT_ENTRY, REPO_ROOT } from "./paths.js";
export { poll, sleep, timed } from "./wait.js";

// The pieces of a run, for harnesses that start the agent through another client (../acpx).
export { agentEnv, printReportIfTheTestFails } from "./harness.js";
export { createSandbox, type Sandbox } from "./sandbox.js";
export { killSurvivors, survivingProcesses } from "./processes.js";
export { requireBuiltAgent } from "./paths.js";
