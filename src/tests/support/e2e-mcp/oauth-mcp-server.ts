// A remote MCP server on 127.0.0.1 that requires OAuth and authorizes whoever completes
// its flow: the test plays its authorization server (metadata, dynamic client
// registration, an authorize endpoint that approves at once, a token endpoint checking
// PKCE) and, with `visit`, the user's browser.
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The one tool the server offers once authorized, and what it answers. */
export const OAUTH_TOOL = "whoami";
export const OAUTH_TOOL_ANSWER = "You are signed in as ada.";

export interface OAuthMcpServer {
  /** Streamable HTTP endpoint: 401 without a token it issued, MCP with one. */
  url: string;
  /** `METHOD path` of every request, in order. */
  readonly requests: string[];
  /** JSON-RPC methods the MCP endpoint answered with a valid token, in order. */
  readonly mcpMethods: string[];
  /**
   * Acts as the user's browser: opens the authorization URL, which approves at once and
   * redirects to the client's callback, and follows that redirect. Resolves with the
   * callback's status.
   */
  visit(authorizationUrl: string): Promise<number>;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

export async function startOAuthMcpServer(): Promise<OAuthMcpServer> {
  const requests: string[] = [];
  const mcpMethods: string[] = [];
  const clients = new Map<string, { redirectUris: string[] }>();
  const codes = new Map<string, { challenge: string; redirectUri: string; clientId: string }>();
  const tokens = new Set<string>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    requests.push(`${req.method} ${req.url}`);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const url = new URL(req.url ?? "/", base);
    const json = (body: unknown, status = 200) => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) {
      return json({ resource: `${base}/mcp`, authorization_servers: [base] });
    }
    if (url.pathname.startsWith("/.well-known/oauth-authorization-server")) {
      return json({
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none", "client_secret_post"],
      });
    }
    if (url.pathname === "/register" && req.method === "POST") {
      const metadata = JSON.parse(await readBody(req)) as { redirect_uris?: string[] };
      const clientId = `client-${randomUUID()}`;
      clients.set(clientId, { redirectUris: metadata.redirect_uris ?? [] });
      return json(
        {
          ...metadata,
          client_id: clientId,
          client_id_issued_at: Math.floor(Date.now() / 1000),
          token_endpoint_auth_method: "none",
        },
        201,
      );
    }
    if (url.pathname === "/authorize") {
      const q = url.searchParams;
      const clientId = q.get("client_id") ?? "";
      const redirectUri = q.get("redirect_uri") ?? "";
      const client = clients.get(clientId);
      if (!client || !client.redirectUris.includes(redirectUri)) {
        return json({ error: "invalid_request" }, 400);
      }
      const code = randomUUID();
      codes.set(code, { challenge: q.get("code_challenge") ?? "", redirectUri, clientId });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      if (q.has("state")) back.searchParams.set("state", q.get("state")!);
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === "/token" && req.method === "POST") {
      const form = new URLSearchParams(await readBody(req));
      const grant = codes.get(form.get("code") ?? "");
      if (
        form.get("grant_type") !== "authorization_code" ||
        !grant ||
        grant.redirectUri !== form.get("redirect_uri") ||
        grant.challenge !== s256(form.get("code_verifier") ?? "")
      ) {
        return json({ error: "invalid_grant" }, 400);
      }
      codes.delete(form.get("code")!);
      const token = randomUUID();
      tokens.add(token);
      return json({ access_token: token, token_type: "Bearer", expires_in: 3600 });
    }
    if (url.pathname === "/mcp") {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      if (!bearer || !tokens.has(bearer)) {
        res
          .writeHead(401, {
            "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`,
          })
          .end();
        return;
      }
      if (req.method !== "POST") {
        res.writeHead(405).end();
        return;
      }
      return answerMcp(JSON.parse(await readBody(req)) as McpMessage, res, mcpMethods);
    }
    res.writeHead(404).end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    mcpMethods,
    visit: async (authorizationUrl) => {
      const approved = await fetch(authorizationUrl, { redirect: "manual" });
      const callback = approved.headers.get("location");
      if (approved.status !== 302 || !callback) {
        throw new Error(`the authorization server answered ${approved.status}`);
      }
      return (await fetch(callback)).status;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface McpMessage {
  id?: string | number;
  method?: string;
  params?: { protocolVersion?: string; name?: string };
}

/** A minimal MCP server over streamable HTTP (JSON answers, no session). */
function answerMcp(message: McpMessage, res: ServerResponse, methods: string[]): void {
  if (message.method) methods.push(message.method);
  if (message.id === undefined) {
    res.writeHead(202).end();
    return;
  }
  const send = (body: object): void => {
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, ...body }));
  };
  const reply = (result: unknown) => send({ result });
  switch (message.method) {
    case "initialize":
      return reply({
        protocolVersion: message.params?.protocolVersion ?? "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "oauth-fixture", version: "1.0.0" },
      });
    case "tools/list":
      return reply({
        tools: [
          {
            name: OAUTH_TOOL,
            description: "Says who the user is signed in as.",
            inputSchema: { type: "object", properties: {} },
          },
        ],
      });
    case "tools/call":
      return reply({ content: [{ type: "text", text: OAUTH_TOOL_ANSWER }] });
    default:
      return send({ error: { code: -32601, message: "Method not found" } });
  }
}
