// Why something a client configured for its session is not applied: each reason said once,
// in the notice the client gets (session/stream/notices.ts).

/** Each reason, as the client's notice says it. */
export const NOT_APPLIED = {
  permissions: "it would decide permissions in place of the user",
  executable: "it chooses the program that runs as Claude Code",
  callback: "a function or a live object cannot come over ACP",
  agent: "the agent sets it itself for every session",
  unknown: "Claude Code has no such option",
  invalid: "its value is not valid",
  mode: "the session does not offer this permission mode",
  // The environment (env.ts): a variable is applied only when it is on the allowlist.
  settings: "it changes where Claude Code reads its settings or files",
  credentials: "it gives Claude Code credentials, or says where to find them",
  shell: "it changes what program runs a command or starts with a shell",
  host: "it changes which host receives requests or keys",
  loader: "it changes how node loads code",
  unvetted: "it is not among the variables a session may set",
  // Plugins (plugins.ts): a plugin loads only when all it holds is on the allowlist.
  hooks: "the plugin brings hooks, which run commands without the user",
  pluginParts: "the plugin holds parts that could act without the user, or could not be checked",
} as const;
export type NotAppliedReason = keyof typeof NOT_APPLIED;

/** One thing a client set that the session does not apply. */
export interface IgnoredOption {
  name: string;
  reason: NotAppliedReason;
}
