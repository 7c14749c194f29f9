// History at any size: a project's saved conversations as an editor's history panel pages
// through them. The history is built from a transcript the real Claude Code wrote (the
// turn-overhead turn, repeated), copied under new session ids a minute apart. Through the
// agent: every `session/list` page of the project's cwd, cursor after cursor (the first
// page and all of them). Baseline in the same run: the SDK's own `listSessions({dir, limit,
// offset})` paged the same way (50 a page; past 2,000 sessions only its first pages are
// read and the whole is extrapolated, since each page costs as much as the first). Also
// `initialize` and `session/new` of a fresh agent with no history and with the largest, and
// `session/load` of a 10 MB conversation made of the same turns, in a fresh agent and in one
// that loaded another conversation first (baseline: the SDK's getSessionMessages).
import { randomUUID } from "node:crypto";
import { readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { getSessionMessages, listSessions } from "@anthropic-ai/claude-agent-sdk";
import { BenchAgent } from "./support/agent-process.js";
import type { BenchContext } from "./support/context.js";
import { rssOf } from "./support/proc.js";
import { progress } from "./support/progress.js";
import type { Row, SuiteResult } from "./support/report.js";
import { benchEnv, createSandbox, type Sandbox } from "./support/sandbox.js";
import { TURN_PROMPT } from "./support/scenarios.js";
import { BaselineQuery } from "./support/sdk-baseline.js";
import { median, summarize } from "./support/stats.js";

/** Sessions per page of the SDK baseline (the agent's own page size is its own). */
const BASELINE_PAGE = 50;
/** Pages of the SDK baseline read past this many sessions; the rest is extrapolated. */
const BASELINE_PAGES_READ = 3;
const BASELINE_FULL_UP_TO = 2_000;
/** Turn-overhead turns in the source conversation (about 150 KB of transcript). */
const SOURCE_TURNS = 12;

interface ListRun {
  firstMs: number;
  totalMs: number;
  pages: number;
  sessions: number;
}

/** A real transcript: Claude Code writes it while the SDK baseline plays SOURCE_TURNS turns. */
async function realTranscript(
  env: Record<string, string>,
  sandbox: Sandbox,
): Promise<{ file: string; sessionId: string }> {
  const query = new BaselineQuery({ cwd: sandbox.cwd, env });
  try {
    for (let i = 0; i < SOURCE_TURNS; i++) await query.turn(TURN_PROMPT);
  } finally {
    query.close();
  }
  const projects = join(sandbox.configDir, "projects");
  for (const project of await readdir(projects)) {
    for (const name of await readdir(join(projects, project))) {
      if (name.endsWith(".jsonl")) {
        return { file: join(projects, project, name), sessionId: name.slice(0, -".jsonl".length) };
      }
    }
  }
  throw new Error("Claude Code wrote no transcript");
}

/** Copies of the source under new ids until the project holds `count`, a minute apart. */
async function grow(source: { file: string; sessionId: string }, count: number): Promise<void> {
  const dir = join(source.file, "..");
  const text = await readFile(source.file, "utf8");
  const have = (await readdir(dir)).filter((name) => name.endsWith(".jsonl")).length;
  const now = Date.now() / 1000;
  const ids = Array.from({ length: count - have }, () => randomUUID());
  for (let i = 0; i < ids.length; i += 64) {
    await Promise.all(
      ids.slice(i, i + 64).map(async (id, j) => {
        const file = join(dir, `${id}.jsonl`);
        await writeFile(file, text.replaceAll(source.sessionId, id));
        const at = now - (have + i + j) * 60;
        await utimes(file, at, at);
      }),
    );
  }
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const MESSAGE_ID = /msg_[0-9a-f]{24}/g;
/** The long conversation's size: the "10 MB conversation". */
const LONG_BYTES = 10 * 1024 * 1024;

/**
 * One long conversation made of the source's turns again and again: each copy's ids are
 * new, and its first message continues the last one of the copy before.
 */
async function longConversation(source: { file: string; sessionId: string }): Promise<string> {
  const id = randomUUID();
  const text = (await readFile(source.file, "utf8")).replaceAll(source.sessionId, id);
  const copies: string[] = [];
  let last: string | undefined;
  let size = 0;
  while (size < LONG_BYTES) {
    const uuids = new Map<string, string>();
    const fresh = (old: string) => {
      if (old === id) return old;
      let next = uuids.get(old);
      if (!next) uuids.set(old, (next = randomUUID()));
      return next;
    };
    let copy = text
      .replace(UUID, fresh)
      .replace(MESSAGE_ID, () => `msg_${randomUUID().replaceAll("-", "").slice(0, 24)}`);
    if (last) copy = copy.replace('"parentUuid":null', `"parentUuid":"${last}"`);
    const uuidsInOrder = [...copy.matchAll(/"uuid":"([0-9a-f-]{36})"/g)];
    last = uuidsInOrder.at(-1)?.[1] ?? last;
    copies.push(copy);
    size += copy.length;
  }
  await writeFile(join(source.file, "..", `${id}.jsonl`), copies.join(""));
  return id;
}

interface LoadTimes {
  firstUpdateMs: number;
  doneMs: number;
  updates: number;
}

interface LoadRun extends LoadTimes {
  idleRss: number;
  peakRss: number;
}

/** session/load of `sessionId`: its first update and its response, from the request. */
async function timedLoad(agent: BenchAgent, cwd: string, sessionId: string): Promise<LoadTimes> {
  let first: number | undefined;
  let updates = 0;
  const off = agent.onUpdate((_params, at) => {
    first ??= at;
    updates++;
  });
  try {
    const load = await agent.request("session/load", { sessionId, cwd, mcpServers: [] });
    return {
      firstUpdateMs: (first ?? load.receivedAt) - load.sentAt,
      doneMs: load.receivedAt - load.sentAt,
      updates,
    };
  } finally {
    off();
  }
}

/** The pause between `initialize` (or the first load) and the load timed. */
const LOAD_PAUSE_MS = 500;

/**
 * session/load of the long conversation in a fresh agent: first update, end, RSS. With
 * `after`, the agent has loaded that (short) session first, as in an editor that opened
 * another conversation before. With `atOnce`, the load is sent as `initialize` answers
 * (an editor reopening its last conversation at start), with no pause in which the agent
 * loads the Claude SDK; the RSS figures are then not an idle agent's.
 */
async function agentLoad(
  env: Record<string, string>,
  cwd: string,
  sessionId: string,
  options: { after?: string; atOnce?: boolean } = {},
): Promise<LoadRun> {
  const agent = new BenchAgent({ env, cwd });
  try {
    await agent.initialize();
    if (options.after) await timedLoad(agent, cwd, options.after);
    if (!options.atOnce) await new Promise((resolve) => setTimeout(resolve, LOAD_PAUSE_MS));
    const idleRss = (await rssOf(agent.pid)) ?? NaN;
    let peakRss = idleRss;
    const sampler = setInterval(() => {
      void rssOf(agent.pid).then((rss) => {
        if (rss !== undefined) peakRss = Math.max(peakRss, rss);
      });
    }, 20);
    try {
      const times = await timedLoad(agent, cwd, sessionId);
      const rss = await rssOf(agent.pid);
      if (rss !== undefined) peakRss = Math.max(peakRss, rss);
      return { ...times, idleRss, peakRss };
    } finally {
      clearInterval(sampler);
    }
  } finally {
    await agent.stop();
  }
}

/** The in-process SDK reads CLAUDE_CONFIG_DIR of this process: the sandbox's, while `read` runs. */
async function inConfigDir<T>(configDir: string, read: () => Promise<T>): Promise<T> {
  const saved = process.env.CLAUDE_CONFIG_DIR;
  process.env.CLAUDE_CONFIG_DIR = configDir;
  try {
    return await read();
  } finally {
    if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR;
    else process.env.CLAUDE_CONFIG_DIR = saved;
  }
}

/** The SDK reading the same conversation (what the agent's load reads it with today). */
function sdkMessages(configDir: string, cwd: string, sessionId: string): Promise<number> {
  return inConfigDir(configDir, async () => {
    const start = performance.now();
    await getSessionMessages(sessionId, { dir: cwd });
    return performance.now() - start;
  });
}

/**
 * session/load of a 10 MB conversation made of the source's turns: in a fresh agent, and in
 * one that loaded a short conversation first (the SDK loaded). Baseline: the SDK's own
 * getSessionMessages of the same file.
 */
async function loadFigures(
  env: Record<string, string>,
  sandbox: Sandbox,
  source: { file: string; sessionId: string },
  samples: number,
): Promise<{ rows: Row[]; detail: unknown }> {
  progress("history: session/load of a 10 MB conversation");
  const long = await longConversation(source);
  const loadSize = (await stat(join(source.file, "..", `${long}.jsonl`))).size;
  const loads: LoadRun[] = [];
  const warm: LoadRun[] = [];
  const atOnce: LoadRun[] = [];
  const sdkReads: number[] = [];
  for (let i = 0; i < samples; i++) {
    loads.push(await agentLoad(env, sandbox.cwd, long));
    warm.push(await agentLoad(env, sandbox.cwd, long, { after: source.sessionId }));
    atOnce.push(await agentLoad(env, sandbox.cwd, long, { atOnce: true }));
    sdkReads.push(await sdkMessages(sandbox.configDir, sandbox.cwd, long));
  }
  const firstUpdate = summarize(loads.map((l) => l.firstUpdateMs));
  const done = summarize(loads.map((l) => l.doneMs));
  const sdkRead = summarize(sdkReads);
  const warmFirst = summarize(warm.map((l) => l.firstUpdateMs));
  const warmDone = summarize(warm.map((l) => l.doneMs));
  const atOnceFirst = summarize(atOnce.map((l) => l.firstUpdateMs));
  const growth = median(loads.map((l) => (l.peakRss - l.idleRss) / 2 ** 20));
  const figure = `Long conversation (${(loadSize / 2 ** 20).toFixed(1)} MB)`;
  const rows: Row[] = [
    {
      figure,
      metric: "session/load → first update",
      unit: "ms",
      agent: firstUpdate,
      target: "≤ 100 ms",
      met: firstUpdate.p50 <= 100,
    },
    {
      figure,
      metric: "session/load → response (SDK: getSessionMessages alone)",
      unit: "ms",
      agent: done,
      baseline: sdkRead,
      ratio: done.p50 / sdkRead.p50,
      target: "≤ 600 ms",
      met: done.p50 <= 600,
    },
    {
      figure,
      metric: "after another load (SDK loaded) → first update",
      unit: "ms",
      agent: warmFirst,
      target: "≤ 100 ms",
      met: warmFirst.p50 <= 100,
    },
    {
      figure,
      metric: "after another load (SDK loaded) → response",
      unit: "ms",
      agent: warmDone,
      target: "≤ 600 ms",
      met: warmDone.p50 <= 600,
    },
    {
      figure,
      metric: "sent as initialize answers → first update",
      unit: "ms",
      agent: atOnceFirst,
      note: "no pause: the Claude SDK loads during this load",
    },
    {
      figure,
      metric: "agent RSS during load above idle (peak, 20 ms samples)",
      unit: "MB",
      agent: growth,
      target: "≤ 50 MB",
      met: growth <= 50,
    },
  ];
  return {
    rows,
    detail: { bytes: loadSize, agent: loads, afterAnother: warm, atOnce, sdkReadMs: sdkReads },
  };
}

async function agentList(agent: BenchAgent, cwd: string): Promise<ListRun> {
  let cursor: string | undefined;
  let firstMs = 0;
  let pages = 0;
  let sessions = 0;
  const start = performance.now();
  do {
    const page = await agent.request<{ sessions: unknown[]; nextCursor?: string | null }>(
      "session/list",
      { cwd, ...(cursor ? { cursor } : {}) },
    );
    if (pages === 0) firstMs = page.receivedAt - page.sentAt;
    pages++;
    sessions += page.result.sessions.length;
    cursor = page.result.nextCursor ?? undefined;
  } while (cursor);
  return { firstMs, totalMs: performance.now() - start, pages, sessions };
}

/** The SDK paged by offset; past BASELINE_FULL_UP_TO its first pages only, extrapolated. */
function sdkList(configDir: string, cwd: string, count: number): Promise<ListRun> {
  return inConfigDir(configDir, async () => {
    const pagesNeeded = Math.ceil(count / BASELINE_PAGE);
    const pagesRead = count <= BASELINE_FULL_UP_TO ? pagesNeeded : BASELINE_PAGES_READ;
    const times: number[] = [];
    let sessions = 0;
    for (let page = 0; page < pagesRead; page++) {
      const start = performance.now();
      const listed = await listSessions({
        dir: cwd,
        limit: BASELINE_PAGE,
        offset: page * BASELINE_PAGE,
        includeProgrammatic: true,
      });
      times.push(performance.now() - start);
      sessions += listed.length;
    }
    const totalMs =
      pagesRead === pagesNeeded ? times.reduce((a, b) => a + b, 0) : median(times) * pagesNeeded;
    return { firstMs: times[0] ?? NaN, totalMs, pages: pagesNeeded, sessions };
  });
}

/** A fresh agent: initialize, then session/new `samples` times (each closed again). */
async function startFigures(
  env: Record<string, string>,
  cwd: string,
  samples: number,
): Promise<{ initialize: number[]; sessionNew: number[] }> {
  const initialize: number[] = [];
  const sessionNew: number[] = [];
  for (let i = 0; i < samples; i++) {
    const agent = new BenchAgent({ env, cwd });
    try {
      const init = await agent.initialize();
      initialize.push(init.receivedAt - agent.spawnedAt);
      const session = await agent.newSession(cwd);
      sessionNew.push(session.receivedAt - session.sentAt);
      await agent.closeSession(session.result.sessionId);
    } finally {
      await agent.stop();
    }
  }
  return { initialize, sessionNew };
}

export async function runHistory(ctx: BenchContext): Promise<SuiteResult> {
  const t0 = performance.now();
  const sandbox = await createSandbox("history");
  const rows: Row[] = [];
  const detail: Record<string, unknown> = {};
  const notes = [
    "History: copies of a transcript the real Claude Code wrote (" +
      `${SOURCE_TURNS} turn-overhead turns), a minute apart, in one project. The agent pages ` +
      "with its cursors; the SDK baseline pages `listSessions` by offset, 50 a page" +
      ` (past ${BASELINE_FULL_UP_TO.toLocaleString("en-US")} sessions: its first ` +
      `${BASELINE_PAGES_READ} pages, the total extrapolated from their median).`,
  ];
  try {
    const env = benchEnv(ctx.api.url, sandbox);
    const starts = ctx.quick ? 1 : 3;
    const empty = await startFigures(env, sandbox.cwd, starts);
    progress("history: writing the source conversation with Claude Code");
    const source = await realTranscript(env, sandbox);
    const size = (await readFile(source.file)).length;
    notes.push(`Source transcript: ${Math.round(size / 1024)} KB.`);
    const counts = ctx.quick ? [500] : [2_000, 20_000];
    for (const count of counts) {
      progress(`history: ${count} sessions`);
      await grow(source, count);
      const agent = new BenchAgent({ env, cwd: sandbox.cwd });
      let run: ListRun;
      try {
        await agent.initialize();
        run = await agentList(agent, sandbox.cwd);
      } finally {
        await agent.stop();
      }
      const sdk = await sdkList(sandbox.configDir, sandbox.cwd, count);
      detail[`list-${count}`] = { agent: run, sdk };
      const label = count.toLocaleString("en-US");
      const firstTarget = count <= 2_000 ? 250 : 1_000;
      const totalTarget = count <= 2_000 ? 1_500 : 15_000;
      rows.push(
        {
          figure: `History (${label} sessions)`,
          metric: "session/list first page",
          unit: "ms",
          agent: run.firstMs,
          baseline: sdk.firstMs,
          ratio: run.firstMs / sdk.firstMs,
          target: `≤ ${firstTarget.toLocaleString("en-US")} ms`,
          met: run.firstMs <= firstTarget,
        },
        {
          figure: `History (${label} sessions)`,
          metric: `every page (agent ${run.pages} pages, SDK ${sdk.pages})`,
          unit: "ms",
          agent: run.totalMs,
          baseline: sdk.totalMs,
          ratio: run.totalMs / sdk.totalMs,
          target: `≤ ${totalTarget.toLocaleString("en-US")} ms`,
          met: run.totalMs <= totalTarget && run.sessions === count,
          ...(sdk.pages * BASELINE_PAGE > BASELINE_FULL_UP_TO && count > BASELINE_FULL_UP_TO
            ? { note: "SDK extrapolated" }
            : {}),
        },
      );
      if (run.sessions !== count) {
        notes.push(`The agent listed ${run.sessions} of ${count} sessions.`);
      }
      // Before the largest history is written: its writing back would be timed too.
      if (count === counts[0]) {
        const load = await loadFigures(env, sandbox, source, ctx.quick ? 1 : 3);
        rows.push(...load.rows);
        detail.load = load.detail;
      }
    }
    const full = await startFigures(env, sandbox.cwd, starts);
    const largest = (counts.at(-1) ?? 0).toLocaleString("en-US");
    detail.start = { empty, full };
    for (const [metric, key] of [
      ["initialize", "initialize"],
      ["session/new", "sessionNew"],
    ] as const) {
      const withHistory = summarize(full[key]);
      const without = summarize(empty[key]);
      rows.push({
        figure: `History (${largest} sessions)`,
        metric: `${metric}: with them vs with none`,
        unit: "ms",
        agent: withHistory,
        baseline: without,
        ratio: withHistory.p50 / without.p50,
        target: "no slower",
        met: withHistory.p50 <= without.p50 * 1.1,
        note: "baseline column: the same agent with no history",
      });
    }
  } finally {
    await sandbox.remove();
  }
  return { suite: "history", rows, notes, durationMs: performance.now() - t0, detail };
}
