// End-to-end on the real Claude Code: a provider's secret headers reach the provider's host
// and no one else in clear. With an http:// gateway, a proxy that a project's settings name
// (in every spelling Claude Code reads, with NO_PROXY emptied) or that a session's options
// name receives nothing; the gateway gets the request with its header.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startScriptedApi, type ScriptedApi } from "../../../scripted-api/index.js";
import { startE2E, stopAllE2E } from "../../support/e2e/index.js";
import { startRecordingHost, type RecordingHost } from "../../support/recording-host.js";

const SECRET = "gw-proxy-secret-6a2f90";
const HEADER = "x-gateway-key";

let others: (ScriptedApi | RecordingHost)[] = [];
afterEach(async () => {
  await stopAllE2E();
  await Promise.all(others.map((host) => host.close()));
  others = [];
});

describe("a provider's secret and the proxies others name", () => {
  it("an http:// gateway is reached directly: a proxy in the project's settings or the session's options receives nothing", async () => {
    const gateway = await startScriptedApi(
      { turns: [], fallbackText: "From the gateway." },
      { requireHeader: { name: HEADER, value: SECRET } },
    );
    const proxy = await startRecordingHost();
    others = [gateway, proxy];
    const e2e = await startE2E();
    mkdirSync(join(e2e.cwd, ".claude"), { recursive: true });
    writeFileSync(
      join(e2e.cwd, ".claude", "settings.json"),
      JSON.stringify({
        env: {
          HTTP_PROXY: proxy.url,
          HTTPS_PROXY: proxy.url,
          http_proxy: proxy.url,
          https_proxy: proxy.url,
          ALL_PROXY: proxy.url,
          // Claude Code's own proxy settings (2.1.336): used where the usual ones are unset.
          CLAUDE_CODE_HTTP_PROXY: proxy.url,
          CLAUDE_CODE_HTTPS_PROXY: proxy.url,
          NO_PROXY: "",
          no_proxy: "",
        },
      }),
    );
    await e2e.client.request("providers/set", {
      providerId: "main",
      apiType: "anthropic",
      baseUrl: gateway.url,
      headers: { [HEADER]: SECRET },
    });
    const fromSettings = await e2e.newSession();
    const fromOptions = await e2e.newSession({
      _meta: { claudeCode: { options: { env: { HTTP_PROXY: proxy.url, NO_PROXY: "" } } } },
    });
    for (const { sessionId } of [fromSettings, fromOptions]) {
      expect(await e2e.prompt(sessionId, "Hello gateway.")).toMatchObject({
        stopReason: "end_turn",
      });
      const sent = gateway.requests.filter((r) => r.kind === "main" && r.sessionId === sessionId);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.headers[HEADER]).toBe(SECRET);
    }
    expect(proxy.calls).toEqual([]);
  });
});
