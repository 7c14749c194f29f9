// A file the agent keeps in its cache dir is read only when it is a small regular file.
// Anything else may be in its place: a FIFO (a blocking read waits for a writer that never
// comes, with the event loop stopped if the read is synchronous), a link to /dev/zero (read
// to the end, it exhausts memory), a huge file (read whole, it costs its size). Each is no
// cache: the agent starts as on its first run and says once which file it did not use.
// Imported by the launch (claude/launch-start.ts) before the agent's bundle loads: nothing
// slow to load here.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { open } from "node:fs/promises";
import { log } from "../logger.js";

/** What the agent learns between runs (starts.json, models.json) takes a few KB. */
export const CACHE_FILE_MAX_BYTES = 256 * 1024;

/** Never through a link; a FIFO opens at once, writer or not (and fstat then refuses it). */
const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * The cache file's bytes; undefined (no cache) when it is missing, which is normal, or
 * when it is not a regular file of at most `maxBytes`, which is said once.
 */
export function readCacheFileSync(
  file: string,
  maxBytes = CACHE_FILE_MAX_BYTES,
): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, FLAGS);
  } catch (error) {
    return refused(file, openRefusal(error));
  }
  try {
    const info = fstatSync(fd);
    const why = refusal(info, maxBytes);
    if (why) return refused(file, why);
    const bytes = Buffer.alloc(info.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } catch (error) {
    return refused(file, unreadable(error));
  } finally {
    closeSync(fd);
  }
}

/** readCacheFileSync off the event loop. */
export async function readCacheFile(
  file: string,
  maxBytes = CACHE_FILE_MAX_BYTES,
): Promise<Buffer | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, FLAGS);
  } catch (error) {
    return refused(file, openRefusal(error));
  }
  try {
    const info = await handle.stat();
    const why = refusal(info, maxBytes);
    if (why) return refused(file, why);
    const bytes = Buffer.alloc(info.size);
    let read = 0;
    while (read < bytes.length) {
      const { bytesRead } = await handle.read(bytes, read, bytes.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return bytes.subarray(0, read);
  } catch (error) {
    return refused(file, unreadable(error));
  } finally {
    await handle.close();
  }
}

function refusal(info: Stats, maxBytes: number): string | undefined {
  if (info.isFile()) {
    return info.size > maxBytes
      ? `${info.size} bytes, over the limit of ${maxBytes} bytes`
      : undefined;
  }
  if (info.isFIFO()) return "a FIFO";
  if (info.isDirectory()) return "a directory";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  if (info.isSocket()) return "a socket";
  return "not a regular file";
}

/** Why the file did not open; undefined when it is missing (none written yet). */
function openRefusal(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return undefined;
  // O_NOFOLLOW on a link: ELOOP (Linux, macOS), EMLINK (FreeBSD).
  if (code === "ELOOP" || code === "EMLINK") return "a symbolic link";
  return unreadable(error);
}

function unreadable(error: unknown): string {
  return `unreadable: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
}

/**
 * The files already said, one set for the process: the launch's copy of this module and
 * the agent bundle's copy (the build bundles main.js over its imports) share it.
 */
const SAID = Symbol.for("claude-agent-acp.cache-files-said");
const said = ((globalThis as unknown as Record<symbol, Set<string> | undefined>)[SAID] ??=
  new Set<string>());

function refused(file: string, why: string | undefined): undefined {
  if (why === undefined || said.has(file)) return undefined;
  said.add(file);
  log.warn(`the cache file ${file} is not used (${why})`);
  return undefined;
}
