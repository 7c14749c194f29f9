// `claude-agent-acp serve`: the agent on the network (see SERVE_HELP).
import { writeFile } from "node:fs/promises";
import { maxMessageBytes } from "../acp/oversized.js";
import { ServerSessions } from "../served-sessions.js";
import { endAllClaudeProcesses } from "../claude/child-process.js";
import { claudeSide } from "../claude-side.js";
import { log } from "../logger.js";
import { holdSecrets } from "../util/secrets.js";
import { agentConnector, type ProtocolPin } from "../protocols.js";
import { PACKAGE_NAME, PACKAGE_VERSION } from "../version.js";
import { listen } from "./http-server.js";
import { pacedStream } from "./paced-stream.js";
import type { ServeOptions } from "./serve-options.js";
import { serverToken } from "./token.js";

/** Starts serving; resolves once listening (the URL said on stderr), rejects if it cannot. */
export async function serve(options: ServeOptions, pin: ProtocolPin | undefined): Promise<void> {
  const token = await serverToken(options.tokenFile);
  holdSecrets([token]);
  const claude = claudeSide();
  // A session moves between connections; a prompt's turn outlives its connection for the
  // grace period (v1 clients).
  const sessions = new ServerSessions(options.graceMs);
  const connector = agentConnector(claude.deps, pin, sessions);
  const server = await listen({
    host: options.host,
    port: options.port,
    admission: { token, allowedOrigins: options.allowedOrigins },
    maxMessageBytes: maxMessageBytes(process.env),
    dropAfterMs: options.dropAfterMs,
    createAgent: () => ({
      connect: (stream) => {
        log.info("a client connected");
        const connection = connector.connect(pacedStream(stream));
        void connection.closed.then(() => log.info("a client's connection ended"));
        return connection;
      },
    }),
  });
  if (options.urlFile !== undefined) await writeFile(options.urlFile, `${server.url}\n`);
  process.stderr.write(`${PACKAGE_NAME} ${PACKAGE_VERSION} serving ACP at ${server.url}\n`);
  process.stderr.write(`(Streamable HTTP at the same address, with http:// for ws://)\n`);
  if (options.tokenFile === undefined) {
    // Said this once: no log line shows it (it is a secret held, util/secrets.ts).
    process.stderr.write(`token: ${token}\n`);
  }
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    log.info("stopping: closing every connection");
    void server
      .close()
      .then(() => {
        sessions.closeAll();
        claude.end();
      })
      .then(() => endAllClaudeProcesses())
      .finally(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
