// What opening a session reads and checks before the session is created, whatever opens it
// (new, load, resume, fork): a load starts it while it checks the saved session.
import type { McpServer } from "@agentclientprotocol/sdk";
import type { SdkSystemPrompt } from "../../claude/client-options/options.js";
import { projectSettingSources } from "../configuration/claude-env.js";
import { type ClientSetup, withCheckedPlugins } from "../configuration/client-setup.js";
import { requireDirectory } from "../configuration/directories.js";
import { mcpServersToClaude } from "../configuration/mcp-servers.js";
import type { KnownModels, ModelCache } from "../configuration/model-cache.js";
import { type AdapterSettings, loadAdapterSettings } from "../configuration/settings.js";
import { requireSavable, type SavedPrompts } from "./saved-prompts.js";

/** Whether a session in a folder loads the folder's project context (the core decides). */
export interface FolderTrust {
  loadsProjectContext: boolean;
}

/** What a session is prepared from. */
export interface PrepareSources<T extends FolderTrust = FolderTrust> {
  env: NodeJS.ProcessEnv;
  resolveExecutable(): string;
  prompts: SavedPrompts;
  models: ModelCache;
  /** The provider the client set, as the model cache keys it. */
  providerKey: string | undefined;
  /** The trust of the session's folder. */
  trust(cwd: string): Promise<T>;
}

/** What opening a session read and checked before it is created. */
export interface Prepared<T extends FolderTrust = FolderTrust> {
  additionalDirectories: string[];
  mcpServers: ReturnType<typeof mcpServersToClaude>;
  executable: string;
  systemPrompt: SdkSystemPrompt | undefined;
  settings: AdapterSettings;
  models: KnownModels;
  /** The request's setup, its plugins checked. */
  setup: ClientSetup;
  /** The folder's trust: without it, the folder's settings are not read either. */
  trust: T;
}

/**
 * The request's directories, checked, then its system prompt (or the one saved for
 * `promptOf`), settings, the models of Claude Code's last start and the plugins it names,
 * read side by side.
 */
export async function prepareSession<T extends FolderTrust>(
  sources: PrepareSources<T>,
  params: {
    cwd: string;
    mcpServers?: McpServer[] | null;
    additionalDirectories?: string[] | null;
  },
  setup: ClientSetup,
  promptOf: string | undefined,
): Promise<Prepared<T>> {
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
  const trust = sources.trust(params.cwd);
  const [systemPrompt, settings, models, checked, trusted] = await Promise.all([
    setup.systemPrompt ?? (promptOf ? sources.prompts.get(promptOf) : Promise.resolve(undefined)),
    trust.then((folder) =>
      loadAdapterSettings(
        params.cwd,
        sources.env,
        projectSettingSources(setup, folder.loadsProjectContext),
      ),
    ),
    sources.models.lookup(executable, sources.providerKey),
    withCheckedPlugins(setup, params.cwd),
    trust,
  ]);
  return {
    additionalDirectories,
    mcpServers,
    executable,
    systemPrompt,
    settings,
    models,
    setup: checked,
    trust: trusted,
  };
}
