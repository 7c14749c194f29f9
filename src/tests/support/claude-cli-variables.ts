// The environment variables the installed Claude Code reads, taken from its binary: the
// registry its code declares variables in (export blocks `NAME: () => id` whose ids are
// defined as typed readers, `id = X.str()`, `X.bool()`...), every `process.env.NAME`, and the
// lists its trust rules keep. Patterns are anchored on the code's shape, not minified names.
import { readClaudeCli, scanClaudeCliAt } from "./claude-cli-source.js";

/**
 * An export block: `f(obj,{NAME:()=>id,...})`. The function's name is looked behind, not
 * matched: a search then starts at each `(`, not at each letter of the binary.
 */
const EXPORT_BLOCK = {
  regex:
    /(?<=[A-Za-z0-9_$])\([A-Za-z0-9_$]+,\{((?:[A-Za-z_][A-Za-z0-9_]*:\(\)=>[A-Za-z0-9_$]+,)*[A-Za-z_][A-Za-z0-9_]*:\(\)=>[A-Za-z0-9_$]+)\}\)/,
  holds: ":()=>",
};
/** A typed reader of one variable, as the registry defines each id after its block. */
const READER =
  /(?<![A-Za-z0-9_$.])([A-Za-z0-9_$]+)=[A-Za-z0-9_$]+\.(?:str|rawStr|bool|triBool|triBoolOr|int|enum|names)\(/g;
/** How far after a block its readers are defined (the registry's are within 100 KB). */
const READERS_WINDOW = 512 * 1024;
const DIRECT = /process\.env\.([A-Za-z_][A-Za-z0-9_]*)/;
const INDEXED = /process\.env\[["']([A-Za-z_][A-Za-z0-9_]*)["']\]/;
/** A string-literal Set of names holding `name`: one of Claude Code's own variable lists. */
const nameSet = (name: string) =>
  new RegExp(`new Set\\(\\[((?:"[A-Z0-9_]+",)*"${name}"(?:,"[A-Z0-9_]+")*)\\]\\)`);
/** Claude Code's binary keeps some strings glued to the next one (`NODE_ENVdevelopment`). */
const GLUED = /[A-Z0-9]_[A-Z0-9]+[a-z]/;

export interface ClaudeCodeVariables {
  /** Every variable it reads. */
  read: Set<string>;
  /**
   * The variables it applies from a project's settings before the user trusts the folder,
   * and its switches that only turn traffic off.
   */
  appliedBeforeTrust: Set<string>;
}

export async function claudeCodeVariables(): Promise<ClaudeCodeVariables> {
  // One pass over the binary (some 400 MB) for every pattern.
  const [blocks = [], ...lists] = await scanClaudeCliAt([
    EXPORT_BLOCK,
    DIRECT,
    INDEXED,
    nameSet("MCP_TOOL_TIMEOUT"),
    nameSet("DO_NOT_TRACK"),
  ]);
  const [direct = [], indexed = [], beforeTrust = [], privacy = []] = lists.map((matches) => [
    ...new Set(matches.map((m) => m.text)),
  ]);
  const read = new Set<string>();
  for (const block of blocks) {
    const entries = [...block.text.matchAll(/([A-Za-z_][A-Za-z0-9_]*):\(\)=>([A-Za-z0-9_$]+)/g)];
    const capitals = entries.filter(([, name]) => /^_?[A-Z][A-Z0-9_]*$/.test(name!)).length;
    if (capitals * 5 < entries.length * 4) continue; // not a block of variables
    const after = await readClaudeCli(block.end, READERS_WINDOW);
    const readers = new Set([...after.matchAll(READER)].map((m) => m[1]));
    const typed = entries.filter(([, , id]) => readers.has(id)).length;
    if (typed * 2 < entries.length) continue;
    for (const [, name] of entries) read.add(name!);
  }
  for (const name of [...direct, ...indexed]) if (!GLUED.test(name)) read.add(name);
  const appliedBeforeTrust = new Set(
    [...beforeTrust, ...privacy].flatMap((list) =>
      list.split(",").map((n) => JSON.parse(n) as string),
    ),
  );
  for (const name of appliedBeforeTrust) read.add(name);
  return { read, appliedBeforeTrust };
}
