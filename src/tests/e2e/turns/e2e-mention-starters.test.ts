// End-to-end: where the real Claude Code starts an @-mention (and reads the file it names,
// unasked), found by what the binary does, and that no text a client attaches starts one
// there. The starters are not listed here: the first test finds them by sweeping every
// punctuation, symbol, separator and control character of the BMP before an `@` in typed
// text, and the others plant a secret behind each starter it found, in every place attached
// text reaches Claude Code's last user block: a resource sent alone, a resource_link's name
// and URI, a file link's path, and a steer (into a running turn and into an idle session).
import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { STEERING_METHOD, type SteeringResponse } from "../../../acp/steering.js";
import { startsMention } from "../../../session/turns/mentions.js";
import { echo, waitingTurn } from "../../support/e2e-turns/steering.js";
import { type E2E, shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";

afterEach(stopAllE2E);
shareAgents();

/** Every BMP character that is punctuation, a symbol, a separator or a control character. */
function candidates(): string[] {
  const kinds = /[\p{P}\p{S}\p{Z}\p{Cc}\p{Cf}]/u;
  const all: string[] = [];
  for (let code = 1; code <= 0xffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const char = String.fromCharCode(code);
    if (kinds.test(char)) all.push(char);
  }
  return all;
}

const hex = (char: string): string => `U+${char.codePointAt(0)!.toString(16).padStart(4, "0")}`;

/** Everything any request to the model carried, main and side. */
const sentToModel = (e2e: E2E): string => JSON.stringify(e2e.api.requests.map((r) => r.body));

/** Claude Code announces each file a mention made it read as a Read call in a reminder. */
const mentionReads = (e2e: E2E): number =>
  sentToModel(e2e).split("Called the Read tool").length - 1;

/**
 * The characters after which the real Claude Code reads a mentioned file: one typed prompt
 * puts each candidate between a letter and `@sweep/fN.txt`, and the files whose markers
 * reach the model tell which. Found once per run.
 */
let sweep: Promise<{ tried: number; starters: string[] }> | undefined;
function observedStarters(): Promise<{ tried: number; starters: string[] }> {
  return (sweep ??= (async () => {
    const e2e = await startE2E();
    try {
      const tried = candidates();
      await mkdir(join(e2e.cwd, "sweep"));
      const markers = await Promise.all(
        tried.map(async (_, i) => {
          const marker = `SWEEP-${i}-${randomUUID()}`;
          await writeFile(join(e2e.cwd, "sweep", `f${i}.txt`), `${marker}\n`);
          return marker;
        }),
      );
      const { sessionId } = await e2e.newSession();
      const typed = tried.map((char, i) => `x${char}@sweep/f${i}.txt`).join(" y ");
      await e2e.prompt(sessionId, [{ type: "text", text: `Look: ${typed}` }]);
      const sent = sentToModel(e2e);
      return { tried: tried.length, starters: tried.filter((_, i) => sent.includes(markers[i]!)) };
    } finally {
      await e2e.stop();
    }
  })());
}

interface Secret {
  path: string;
  marker: string;
}

/** A file holding a marker of its own; the markers that reached the model are leaks. */
async function plant(path: string): Promise<Secret> {
  const secret = { path, marker: `SECRET-${randomUUID()}` };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${secret.marker}\n`);
  return secret;
}

/** Secrets beside the project (absolute paths, one with a space) and in HOME, per starter. */
async function secretsPerStarter(e2e: E2E, starters: readonly string[]) {
  const outside = join(dirname(e2e.cwd), "outside");
  return Promise.all(
    starters.map(async (starter, i) => ({
      starter,
      absolute: await plant(join(outside, `abs-${i}`)),
      quoted: await plant(join(outside, `quoted dir ${i}`, "key")),
      home: await plant(join(e2e.home, `creds-${i}.txt`)),
    })),
  );
}
type Planted = Awaited<ReturnType<typeof secretsPerStarter>>;

/** A multi-line text that mentions every secret right after its starter, in every form. */
function hostileText(planted: Planted): string {
  return planted
    .map(({ starter, absolute, quoted }, i) =>
      [
        `Notes${starter}@${absolute.path}`,
        `line ${i} says ok${starter}@"${quoted.path}" and more`,
        `ok${starter}@~/creds-${i}.txt`,
      ].join("\n"),
    )
    .join("\n");
}

/** The secrets whose markers reached the model, by starter and path. */
function leaks(e2e: E2E, planted: Planted): string[] {
  const sent = sentToModel(e2e);
  return planted.flatMap(({ starter, absolute, quoted, home }) =>
    [absolute, quoted, home]
      .filter((s) => sent.includes(s.marker))
      .map((s) => `${hex(starter)} ${s.path}`),
  );
}

function steer(e2e: E2E, sessionId: string, prompt: ContentBlock[]): Promise<SteeringResponse> {
  return e2e.client.request<SteeringResponse>(STEERING_METHOD, { sessionId, prompt });
}

const resource = (text: string): ContentBlock => ({
  type: "resource",
  resource: { uri: "file:///notes.md", text },
});

describe("mention starters on the real Claude Code", { timeout: 90_000 }, () => {
  it("the binary starts a mention after exactly the characters startsMention names: whitespace and Claude Code's punctuation", async () => {
    const { tried, starters } = await observedStarters();
    const expected = candidates().filter((char) => startsMention(char));
    expect(tried).toBeGreaterThan(4_000);
    expect(starters.map(hex)).toEqual(expected.map(hex));
  });

  it("a resource sent alone mentions nothing after any starter: absolute, quoted and home paths, on any line, are not read", async () => {
    const { starters } = await observedStarters();
    const e2e = await startE2E();
    const planted = await secretsPerStarter(e2e, starters);
    const { sessionId } = await e2e.newSession();

    await e2e.prompt(sessionId, [resource(hostileText(planted))]);

    expect(leaks(e2e, planted)).toEqual([]);
    expect(mentionReads(e2e)).toBe(0);
    expect(e2e.permissions.records).toEqual([]);
  });

  it("a resource_link's name and https URI mention nothing after any starter", async () => {
    const { starters } = await observedStarters();
    const e2e = await startE2E();
    const planted = await secretsPerStarter(e2e, starters);
    const { sessionId } = await e2e.newSession();

    const links: ContentBlock[] = planted.flatMap(({ starter, absolute, quoted }, i) => [
      {
        type: "resource_link",
        uri: "https://example.com/doc",
        name: `doc${starter}@${absolute.path} more`,
      },
      { type: "resource_link", uri: `https://example.com/x${starter}@"${quoted.path}"`, name: "x" },
      {
        type: "resource_link",
        uri: "https://example.com/y",
        name: `ok${starter}@~/creds-${i}.txt`,
      },
    ]);
    await e2e.prompt(sessionId, [{ type: "text", text: "Look at" }, ...links]);

    expect(leaks(e2e, planted)).toEqual([]);
    expect(mentionReads(e2e)).toBe(0);
    expect(e2e.permissions.records).toEqual([]);
  });

  it("a file link to a real project file whose path holds a starter and a mention stays a plain link: neither file is read", async () => {
    const { starters } = await observedStarters();
    const e2e = await startE2E();
    const planted = await secretsPerStarter(e2e, starters);
    // docs/a b/x。@~/creds-N.txt: a directory `x。@~` holding `creds-N.txt`, as an editor
    // attaches a file of the project.
    const projectFiles = await Promise.all(
      planted.map(({ starter }, i) =>
        plant(join(e2e.cwd, "docs", "a b", `x${starter}@~`, `creds-${i}.txt`)),
      ),
    );
    const { sessionId } = await e2e.newSession();

    const links: ContentBlock[] = projectFiles.map((file) => ({
      type: "resource_link",
      uri: `file://${encodeURI(file.path).replaceAll("#", "%23")}`,
      name: file.path.slice(e2e.cwd.length + 1),
    }));
    await e2e.prompt(sessionId, [{ type: "text", text: "Read these:" }, ...links]);

    expect(leaks(e2e, planted)).toEqual([]);
    const sent = sentToModel(e2e);
    expect(projectFiles.filter((f) => sent.includes(f.marker)).map((f) => f.path)).toEqual([]);
    expect(mentionReads(e2e)).toBe(0);
    expect(e2e.permissions.records).toEqual([]);
  });

  it("a steer carrying such a resource, into a running turn or into an idle session, mentions nothing", async () => {
    const { starters } = await observedStarters();
    const e2e = await startE2E({
      scenario: [waitingTurn(), echo, echo, echo],
      permission: { answer: "select", optionId: "allow-once" },
    });
    const planted = await secretsPerStarter(e2e, starters);
    const { sessionId } = await e2e.newSession();
    const text = hostileText(planted);

    const answer = e2e.prompt(sessionId, "Wait a bit.");
    await e2e.updates.waitFor(sessionId, "tool_call", () => true);
    expect(await steer(e2e, sessionId, [resource(text)])).toEqual({ outcome: "injected" });
    expect(await answer).toMatchObject({ stopReason: "end_turn" });

    const before = e2e.api.mainRequests().length;
    expect(await steer(e2e, sessionId, [resource(text)])).toEqual({ outcome: "startedNewTurn" });
    await e2e.api.waitForMainRequests(before + 1);
    // The idle steer's turn ends: a prompt after it is answered in turn.
    expect(await e2e.prompt(sessionId, "Thanks.")).toMatchObject({ stopReason: "end_turn" });

    expect(leaks(e2e, planted)).toEqual([]);
    expect(mentionReads(e2e)).toBe(0);
    // At most the Bash call was asked about: no read of a mentioned file.
    const asked = e2e.permissions.records.map((r) => r.request.toolCall.title);
    expect(asked.filter((title) => !title?.includes("sleep 3"))).toEqual([]);
  });
});
