// The scripted account API: claude.ai's usage endpoint behind an HTTPS proxy with its own
// throwaway authority, and nothing else reachable through it.
import { readFile } from "node:fs/promises";
import { request } from "node:http";
import type { Socket } from "node:net";
import { connect } from "node:tls";
import { afterEach, describe, expect, it } from "vitest";
import { ACCOUNT_HOST, startAccountApi, type AccountApi } from "../../scripted-api/index.js";

let account: AccountApi | undefined;
afterEach(async () => {
  await account?.close();
  account = undefined;
});

/** CONNECT through the proxy: the status line's code, and the tunnel when it is open. */
function tunnel(proxy: string, target: string): Promise<{ status: number; socket: Socket }> {
  const { hostname, port } = new URL(proxy);
  return new Promise((resolve, reject) => {
    request({ host: hostname, port, method: "CONNECT", path: target })
      .on("connect", (res, socket) => resolve({ status: res.statusCode ?? 0, socket }))
      .on("error", reject)
      .end();
  });
}

describe("the scripted account API", () => {
  it("refuses a tunnel to any host but the account host", async () => {
    account = await startAccountApi();
    const env = account.env("t");
    const { status, socket } = await tunnel(env.HTTPS_PROXY ?? "", "example.com:443");
    socket.destroy();
    expect(status).toBe(403);
  });

  it("answers the usage endpoint over TLS its authority signed, with the plan's windows and rows", async () => {
    const resetsAt = new Date("2026-12-04T04:00:00Z");
    account = await startAccountApi({ usage: { fiveHour: { utilization: 92, resetsAt } } });
    const env = account.env("t");
    const { status, socket } = await tunnel(env.HTTPS_PROXY ?? "", `${ACCOUNT_HOST}:443`);
    expect(status).toBe(200);
    const ca = await readFile(env.NODE_EXTRA_CA_CERTS ?? "", "utf8");
    const tls = connect({ socket, servername: ACCOUNT_HOST, ca });
    await new Promise<void>((resolve, reject) =>
      tls.once("secureConnect", resolve).once("error", reject),
    );
    tls.write(
      `GET /api/oauth/usage HTTP/1.1\r\nHost: ${ACCOUNT_HOST}\r\nConnection: close\r\n\r\n`,
    );
    let raw = "";
    for await (const chunk of tls) raw += String(chunk);
    const body = JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4)) as Record<string, unknown>;
    expect(raw).toMatch(/^HTTP\/1\.1 200/);
    expect(body).toMatchObject({
      five_hour: { utilization: 92, resets_at: "2026-12-04T04:00:00.000Z" },
      seven_day: null,
      limits: [
        { kind: "session", group: "session", percent: 92, severity: "critical", is_active: true },
      ],
    });
    expect(account.requests).toEqual(["GET /api/oauth/usage"]);
  });
});
