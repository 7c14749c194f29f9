// Where Claude Code writes a running command's output: a file per task under its temporary
// directory, `<tmp>/claude-<uid>/<project>/<session>/tasks/<task>.output`, where `<tmp>` is
// CLAUDE_CODE_TMPDIR, else the temporary directory of its environment. A background
// command's result names that file; a foreground command's is found here, so its output can
// be shown while it runs (Claude Code reports such a command as a task once it runs a while).
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { isSessionId } from "./session-id.js";

/** Claude Code's task ids name files: nothing else is looked up. */
const TASK_ID = /^[a-z0-9]{1,64}$/i;

/** The temporary directory of Claude Code's environment, as it finds it. */
function temporaryDirectory(env: NodeJS.ProcessEnv): string {
  const dir = env.CLAUDE_CODE_TMPDIR || env.TMPDIR || env.TMP || env.TEMP || "/tmp";
  return dir.length > 1 ? dir.replace(/\/+$/, "") : dir;
}

/**
 * The output file of task `taskId` of session `sessionId`, for a Claude Code process started
 * with `env`; undefined when there is none (yet), or it is not a regular file.
 */
export async function taskOutputFile(
  env: NodeJS.ProcessEnv,
  sessionId: string,
  taskId: string,
): Promise<string | undefined> {
  const uid = process.getuid?.();
  if (uid === undefined || !TASK_ID.test(taskId) || !isSessionId(sessionId)) return undefined;
  const root = join(temporaryDirectory(env), `claude-${uid}`);
  // The project directory is named after the cwd by Claude Code's own rule: each is tried.
  for (const project of await readdir(root).catch((): string[] => [])) {
    const file = join(root, project, sessionId, "tasks", `${taskId}.output`);
    const stats = await lstat(file).catch(() => undefined);
    if (stats?.isFile()) return file;
  }
  return undefined;
}
