import { execFile } from "node:child_process";
import { realpath, stat } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { InvalidParamsError } from "../../errors.js";

/** The ways a directory may be written: as given and its real path (symlinks resolved). */
export async function spellings(dir: string): Promise<Set<string>> {
  const real = await realpath(dir).catch(() => undefined);
  return new Set([resolve(dir), ...(real ? [real] : [])]);
}

/** Whether `recorded` (a cwd Claude Code saved) is one of `spellings` of a directory. */
export function isOneOf(recorded: string | undefined, spellings: ReadonlySet<string>): boolean {
  return recorded !== undefined && spellings.has(resolve(recorded));
}

const GIT_TIMEOUT_MS = 5_000;

/** The root of every git worktree of the repository `dir` is in; none outside git. */
export function gitWorktreeRoots(dir: string): Promise<string[]> {
  return new Promise((done) => {
    execFile(
      "git",
      ["worktree", "list", "--porcelain"],
      { cwd: dir, timeout: GIT_TIMEOUT_MS },
      (error, stdout) => {
        if (error) return done([]);
        done(
          stdout
            .split("\n")
            .filter((line) => line.startsWith("worktree "))
            .map((line) => line.slice("worktree ".length)),
        );
      },
    );
  });
}

/** A directory a session works in: an absolute path to an existing directory (-32602 else). */
export async function requireDirectory(path: string, what: string): Promise<void> {
  if (!isAbsolute(path))
    throw new InvalidParamsError(`${what} must be an absolute path.`, { path });
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new InvalidParamsError(`${what} must be an existing directory.`, { path });
  }
}
