// acpx, a real headless ACP client, driving the built agent end to end: see README.md.
export { startAcpx, stopAllAcpx } from "./harness.js";
export type { Acpx, AcpxExec, AcpxOptions } from "./harness.js";
export type { AcpxResult } from "./cli.js";
export { acpxRuntime } from "./runtime.js";
export { JsonOutput } from "./json-output.js";
export { LAUNCHER_NAME } from "./launcher.js";
