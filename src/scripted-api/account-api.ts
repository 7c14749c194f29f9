// claude.ai's account endpoints as Claude Code reaches them: Claude Code asks
// https://api.anthropic.com for a subscriber's plan usage (`/usage`) whatever
// ANTHROPIC_BASE_URL says, so this is an HTTPS proxy that answers for that host itself,
// with a certificate from a throwaway authority Claude Code is told to trust
// (NODE_EXTRA_CA_CERTS). Every other host is refused: nothing leaves the machine.
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TLSSocket } from "node:tls";

/** The host whose account endpoints this answers. */
export const ACCOUNT_HOST = "api.anthropic.com";

/** One plan window of `/api/oauth/usage` (utilization in percent, 0–100). */
export interface PlanWindow {
  utilization: number;
  resetsAt: Date;
}

export interface AccountApiOptions {
  /** The plan's windows; the rows Claude Code prints are made from them. */
  usage?: { fiveHour?: PlanWindow; sevenDay?: PlanWindow };
}

export interface AccountApi {
  /** `METHOD path` of each request that reached the account host. */
  readonly requests: string[];
  /**
   * The env that makes Claude Code a subscriber whose account calls come here: an OAuth
   * token with the profile scope (plan usage needs it), this proxy for HTTPS (local hosts
   * direct), and trust in this proxy's authority. Claude Code fetches the plan's usage only
   * when its non-essential traffic is on, so that switch is removed.
   */
  env(token: string): Record<string, string | undefined>;
  close(): Promise<void>;
}

/** A throwaway authority and a certificate for ACCOUNT_HOST it signed (openssl). */
async function certificates(dir: string): Promise<{ ca: string; key: string; cert: string }> {
  const path = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "ignore" });
  const key = ["-newkey", "rsa:2048", "-nodes"];
  openssl(
    "req",
    "-x509",
    ...key,
    ...["-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "2"],
    ...["-subj", "/CN=scripted account API test authority"],
    ...["-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"],
  );
  openssl(
    "req",
    ...key,
    "-keyout",
    path("host.key"),
    "-out",
    path("host.csr"),
    "-subj",
    `/CN=${ACCOUNT_HOST}`,
  );
  await writeFile(
    path("host.ext"),
    `subjectAltName=DNS:${ACCOUNT_HOST}\nextendedKeyUsage=serverAuth\n`,
  );
  openssl(
    "x509",
    "-req",
    ...["-in", path("host.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key")],
    ...["-CAcreateserial", "-out", path("host.pem"), "-days", "2", "-extfile", path("host.ext")],
  );
  return {
    ca: path("ca.pem"),
    key: await readFile(path("host.key"), "utf8"),
    cert: await readFile(path("host.pem"), "utf8"),
  };
}

/** The usage endpoint's body: the windows, and the rows (`limits`) made from them. */
function usageBody(usage: AccountApiOptions["usage"] = {}): Record<string, unknown> {
  const window = (w: PlanWindow | undefined) =>
    w && { utilization: w.utilization, resets_at: w.resetsAt.toISOString() };
  const row = (kind: string, group: string, w: PlanWindow | undefined, active: boolean) =>
    w && {
      kind,
      group,
      percent: w.utilization,
      resets_at: w.resetsAt.toISOString(),
      severity: w.utilization >= 90 ? "critical" : w.utilization >= 75 ? "warning" : "normal",
      is_active: active,
    };
  return {
    five_hour: window(usage.fiveHour) ?? null,
    seven_day: window(usage.sevenDay) ?? null,
    limits: [
      row("session", "session", usage.fiveHour, true),
      row("weekly_all", "weekly", usage.sevenDay, false),
    ].filter(Boolean),
  };
}

/** Starts the proxy; `close()` stops it and removes its certificates. */
export async function startAccountApi(options: AccountApiOptions = {}): Promise<AccountApi> {
  const dir = await mkdtemp(join(tmpdir(), "account-api-"));
  const { ca, key, cert } = await certificates(dir);
  const requests: string[] = [];

  const account = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    const json = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
      });
      res.end(text);
    };
    if (req.method === "GET" && req.url?.startsWith("/api/oauth/usage")) {
      return json(200, usageBody(options.usage));
    }
    json(404, { type: "error", error: { type: "not_found_error", message: "Not found" } });
  });

  const proxy = createServer((_req, res) => {
    res.writeHead(403);
    res.end();
  });
  proxy.on("connect", (req: IncomingMessage, socket) => {
    socket.on("error", () => undefined);
    if (req.url !== `${ACCOUNT_HOST}:443`) {
      socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    const tls = new TLSSocket(socket, { isServer: true, key, cert });
    tls.on("error", () => undefined);
    account.emit("connection", tls);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  return {
    requests,
    env: (token) => ({
      CLAUDE_CODE_OAUTH_TOKEN: token,
      CLAUDE_CODE_OAUTH_SCOPES: "user:inference user:profile",
      CLAUDE_CODE_SUBSCRIPTION_TYPE: "max",
      ANTHROPIC_API_KEY: undefined,
      HTTPS_PROXY: proxyUrl,
      NO_PROXY: "127.0.0.1,localhost",
      NODE_EXTRA_CA_CERTS: ca,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: undefined,
    }),
    close: async () => {
      proxy.closeAllConnections();
      account.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
