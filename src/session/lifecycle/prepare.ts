// What opening a session reads and checks before the session is created, whatever opens it
// (new, load, resume, fork): a load starts it while it checks the saved session.
import type { McpServer } from "@agentclientprotocol/sdk";
import type { SdkSystemPrompt } from "../../claude/client-options/options.js";
import { type ClientSetup, withCheckedPlugins } from "../configuration/client-setup.js";
import { requireDirectory } from "../configuration/directories.js";
import { mcpServersToClaude } from "../configuration/mcp-servers.js";
import type { KnownModels, ModelCache } from "../configuration/model-cache.js";
import { type AdapterSettings, loadAdapterSettings } from "../configuration/settings.js";
import { requireSavable, type SavedPrompts } from "./saved-prompts.js";

/** What a session is prepared from. */
export interface PrepareSources {
  env: NodeJS.ProcessEnv;
  resolveExecutable(): string;
  prompts: SavedPrompts;
  models: ModelCache;
  /** The provider the client set, as the model cache keys it. */
  providerKey: string | undefined;
}

/** What opening a session read and checked before it is created. */
export interface Prepared {
  additionalDirectories: string[];
  mcpServers: ReturnType<typeof mcpServersToClaude>;
  executable: string;
  systemPrompt: SdkSystemPrompt | undefined;
  settings: AdapterSettings;
  models: KnownModels;
  /** The request's setup, its plugins checked. */
  setup: ClientSetup;
}

/**
 * The request's directories, checked, then its system prompt (or the one saved for
 * `promptOf`), settings, the models of Claude Code's last start and the plugins it names,
 * read side by side.
 */
export async function prepareSession(
  sources: PrepareSources,
  params: {
    cwd: string;
    mcpServers?: McpServer[] | null;
    additionalDirectories?: string[] | null;
  },
  setup: ClientSetup,
  promptOf: string | undefined,
): Promise<Prepared> {
  await requireDirectory(params.cwd, "cwd");
  // The prompt given is kept for a later load: one a load could not read back is refused.
  if (setup.systemPrompt !== undefined) requireSavable(setup.systemPrompt);
  // Legacy clients' `_meta.additionalRoots` stand in for ACP's field when it is empty.
  const roots = params.additionalDirectories?.length
    ? params.additionalDirectories
    : setup.additionalRoots;
  const additionalDirectories = [...new Set([...roots, ...setup.additionalDirectories])];
  for (const dir of additionalDirectories) await requireDirectory(dir, "additionalDirectories");
  const mcpServers = mcpServersToClaude(params.mcpServers ?? []);
  const executable = sources.resolveExecutable();
  const [systemPrompt, settings, models, checked] = await Promise.all([
    setup.systemPrompt ?? (promptOf ? sources.prompts.get(promptOf) : Promise.resolve(undefined)),
    loadAdapterSettings(params.cwd, sources.env, setup.settingSources),
    sources.models.lookup(executable, sources.providerKey),
    withCheckedPlugins(setup, params.cwd),
  ]);
  return {
    additionalDirectories,
    mcpServers,
    executable,
    systemPrompt,
    settings,
    models,
    setup: checked,
  };
}
