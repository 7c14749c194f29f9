// Which saved conversations of some directories change, as they change: a watch of the
// project directories Claude Code keeps their transcripts in, and of the directory those live
// in (for a project made after the watch began). File watching, not polling: nothing runs
// while nothing is written.
import { watch, type FSWatcher } from "node:fs";
import { readdir } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { log } from "../logger.js";
import { holds } from "./session-index.js";
import { isSessionId } from "./session-id.js";

/** A watch of transcripts; `close` ends it (and is idempotent). */
export interface TranscriptWatch {
  close(): void;
}

/** The session a file of a project directory belongs to: `<id>.jsonl`, or its `<id>/` directory. */
function sessionOf(file: string): string | undefined {
  const id = file.endsWith(".jsonl") ? file.slice(0, -6) : file;
  return isSessionId(id) ? id : undefined;
}

/** `fs.watch` of a directory, or undefined when it cannot be watched (it does not exist). */
function watchDir(dir: string, onFile: (file: string | undefined) => void, onGone: () => void) {
  try {
    const watcher = watch(dir, { persistent: false }, (_event, file) =>
      onFile(file === null ? undefined : String(file)),
    );
    watcher.on("error", () => {
      watcher.close();
      onGone();
    });
    return watcher;
  } catch {
    return undefined;
  }
}

/**
 * Calls `changed` with the ids of the sessions whose transcripts (or the files Claude Code
 * keeps beside one, as its archive mark's directory) in the projects of `dirs` are written,
 * made or removed, until closed. A project directory made later is watched from then on, and
 * each of its sessions reported once. An event that names no file reports nothing: the
 * caller's own reads cover what it knows to have changed.
 */
export function watchTranscripts(
  projectsDir: string,
  dirs: readonly string[],
  changed: (sessionIds: readonly string[]) => void,
): TranscriptWatch {
  const projects = new Map<string, FSWatcher>();
  /** The projects directory, or the nearest ancestor of it that exists, while it does not. */
  let root: { dir: string; watcher: FSWatcher } | undefined;
  let closed = false;

  const watchProject = (name: string, announce: boolean) => {
    if (closed || !dirs.some((dir) => holds(name, dir))) return;
    // Made, removed or made again: the watch is of the directory there now.
    projects.get(name)?.close();
    projects.delete(name);
    const project = join(projectsDir, name);
    const watcher = watchDir(
      project,
      (file) => {
        const id = file && sessionOf(file);
        if (id) changed([id]);
      },
      () => projects.get(name) === watcher && projects.delete(name),
    );
    if (!watcher) return;
    projects.set(name, watcher);
    if (announce) {
      void readdir(project)
        .then((files) => files.flatMap((file) => sessionOf(file) ?? []))
        .then((ids) => ids.length && !closed && changed([...new Set(ids)]))
        .catch(() => undefined);
    }
  };

  const scanProjects = (announce: boolean) =>
    readdir(projectsDir)
      .then((names) => names.forEach((name) => watchProject(name, announce)))
      .catch(() => undefined);

  /** The name in `ancestor` on the way to the projects directory. */
  const towards = (ancestor: string) => relative(ancestor, projectsDir).split(sep)[0];

  /** Watches the projects directory, or the nearest ancestor that exists until it does. */
  const watchRoot = (announce: boolean): void => {
    root?.watcher.close();
    root = undefined;
    for (let dir = projectsDir; !closed; dir = dirname(dir)) {
      const watcher = watchDir(
        dir,
        (file) => {
          if (dir === projectsDir) {
            if (file) watchProject(file, true);
            else void scanProjects(true);
          } else if (!file || file === towards(dir)) watchRoot(true); // a step to it was made
        },
        () => watchRoot(true),
      );
      if (watcher) {
        root = { dir, watcher };
        if (dir === projectsDir) void scanProjects(announce);
        return;
      }
      if (dirname(dir) === dir) return;
    }
  };

  watchRoot(false);
  log.debug(`watching the transcripts of ${dirs.join(", ")}`);
  return {
    close() {
      closed = true;
      root?.watcher.close();
      projects.forEach((watcher) => watcher.close());
      projects.clear();
    },
  };
}
