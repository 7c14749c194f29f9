// End-to-end on the real Claude Code: a second scripted API acts as a corporate LLM gateway
// that refuses any request without its header. `providers/set` sends new sessions there,
// and an open session from its next turn; `disable` returns both to the first API; the
// gateway's models fill the picker; the header's value appears in no log, wire message or
// file the run leaves.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { lastUserText, startScriptedApi, type ScriptedApi } from "../../../scripted-api/index.js";
import { startE2E, stopAllE2E } from "../../support/e2e/index.js";

const SECRET = "gw-e2e-secret-91c4d2";
const HEADER = "x-gateway-key";

let gateway: ScriptedApi | undefined;
afterEach(async () => {
  await stopAllE2E();
  await gateway?.close();
  gateway = undefined;
});

/** The main-loop requests of one session an API received. */
const mainOf = (api: ScriptedApi, sessionId: string) =>
  api.requests.filter((r) => r.kind === "main" && r.sessionId === sessionId);

describe("providers, end to end", () => {
  it("providers/set routes new and open sessions to a gateway with its header; disable routes them back; the secret shows nowhere", async () => {
    gateway = await startScriptedApi(
      { turns: [], fallbackText: "From the gateway." },
      {
        requireHeader: { name: HEADER, value: SECRET },
        models: [{ id: "corp-sonnet-1", display_name: "Corp Sonnet" }],
      },
    );
    const e2e = await startE2E();
    // The user's settings name the first API too: a settings file's env would win over the
    // environment, so the provider pins its routing above it.
    mkdirSync(e2e.configDir, { recursive: true });
    writeFileSync(
      join(e2e.configDir, "settings.json"),
      JSON.stringify({ env: { ANTHROPIC_BASE_URL: e2e.api.url } }),
    );
    const open = await e2e.newSession();
    await e2e.prompt(open.sessionId, "First, on the public API.");
    expect(mainOf(e2e.api, open.sessionId)).toHaveLength(1);

    await e2e.client.request("providers/set", {
      providerId: "main",
      apiType: "anthropic",
      baseUrl: gateway.url,
      headers: { [HEADER]: SECRET },
    });
    const listed = await e2e.client.request<{ providers: unknown[] }>("providers/list", {});
    expect(listed.providers).toMatchObject([
      { current: { apiType: "anthropic", baseUrl: gateway.url } },
    ]);

    // A new session: its requests go to the gateway, with the header and without the
    // agent's own API key; its picker offers the gateway's model.
    const fresh = await e2e.newSession();
    const models = fresh.configOptions?.find((o) => o.id === "model");
    expect(JSON.stringify(models)).toContain("corp-sonnet-1");
    expect(await e2e.prompt(fresh.sessionId, "Hello gateway.")).toMatchObject({
      stopReason: "end_turn",
    });
    const sent = mainOf(gateway, fresh.sessionId);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers[HEADER]).toBe(SECRET);
    expect(sent[0]!.headers["x-api-key"]).toBeUndefined();
    expect(JSON.stringify(e2e.updates.of(fresh.sessionId, "agent_message_chunk"))).toContain(
      "From the gateway.",
    );

    // The open session's next turn goes to the gateway too, continuing its conversation.
    await e2e.prompt(open.sessionId, "Second, through the gateway.");
    const continued = mainOf(gateway, open.sessionId);
    expect(continued).toHaveLength(1);
    expect(JSON.stringify(continued[0]!.body)).toContain("First, on the public API.");
    expect(mainOf(e2e.api, open.sessionId)).toHaveLength(1);

    await e2e.client.request("providers/disable", { providerId: "main" });
    await e2e.prompt(fresh.sessionId, "Back to the public API.");
    expect(lastUserText(mainOf(e2e.api, fresh.sessionId).at(-1)!)).toContain(
      "Back to the public API.",
    );
    expect(mainOf(gateway, fresh.sessionId)).toHaveLength(1);

    // The header went to the gateway only.
    expect(e2e.api.requests.filter((r) => r.headers[HEADER] !== undefined)).toEqual([]);

    // The secret: not in the debug log, not on the wire but in the request that set it,
    // not in any file under the run's HOME, config and cache.
    expect(e2e.log()).not.toContain(SECRET);
    const wire = e2e.transcript.entries
      .filter((entry) => !JSON.stringify(entry.message).includes('"providers/set"'))
      .map((entry) => JSON.stringify(entry.message))
      .join("\n");
    expect(wire).not.toContain(SECRET);
    const files = grepFiles(dirname(e2e.home), SECRET);
    expect(files).toEqual([]);
  });

  it("a gateway that takes an Authorization bearer token, or an x-api-key, gets it as Claude Code's own credential", async () => {
    const bearer = "gw-bearer-7d1e55";
    gateway = await startScriptedApi(
      { turns: [], fallbackText: "Bearer accepted." },
      { requireHeader: { name: "authorization", value: `Bearer ${bearer}` } },
    );
    const e2e = await startE2E();
    await e2e.client.request("providers/set", {
      providerId: "main",
      apiType: "anthropic",
      baseUrl: gateway.url,
      headers: { Authorization: `Bearer ${bearer}` },
    });
    const first = await e2e.newSession();
    expect(await e2e.prompt(first.sessionId, "Hi.")).toMatchObject({ stopReason: "end_turn" });
    expect(mainOf(gateway, first.sessionId)).toHaveLength(1);

    const key = "gw-key-2b9f07";
    const keyed = await startScriptedApi(
      { turns: [], fallbackText: "Key accepted." },
      { requireHeader: { name: "x-api-key", value: key } },
    );
    try {
      await e2e.client.request("providers/set", {
        providerId: "main",
        apiType: "anthropic",
        baseUrl: keyed.url,
        headers: { "x-api-key": key },
      });
      const second = await e2e.newSession();
      expect(await e2e.prompt(second.sessionId, "Hi.")).toMatchObject({ stopReason: "end_turn" });
      expect(mainOf(keyed, second.sessionId)).toHaveLength(1);
    } finally {
      await keyed.close();
    }
    expect(e2e.log()).not.toContain(bearer);
    expect(e2e.log()).not.toContain(key);
  });
});

/** The files under `root` that hold `text`. */
function grepFiles(root: string, text: string): string[] {
  try {
    return execFileSync("grep", ["-rlF", "--", text, root], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean);
  } catch {
    return []; // grep exits 1 when nothing matches
  }
}
