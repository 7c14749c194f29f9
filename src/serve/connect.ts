// `claude-agent-acp connect`: stdio to a served agent, for clients that start agents as
// commands (Zed, acpx): they run this where they run, and it carries ACP to the URL.
import { Readable, Writable } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { readToken, remoteStream } from "../client/agent/remote-agent.js";
import { errorText } from "../client/text-limits.js";
import { log } from "../logger.js";

/** Carries stdio to the served agent until either side ends; resolves with the exit code. */
export async function connect(url: string, tokenFile: string): Promise<number> {
  const token = await readToken(tokenFile);
  const remote = await remoteStream(url, token);
  const local = ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  // Whichever side ends first ends the bridge, as a stdio agent ends with its stdin.
  const failed =
    (side: string) =>
    (error: unknown): number => {
      log.error(`the ${side} failed: ${errorText(error)}`);
      return 1;
    };
  return Promise.race([
    local.readable.pipeTo(remote.writable).then(() => 0, failed("client's side")),
    remote.readable.pipeTo(local.writable).then(() => 0, failed("connection to the agent")),
  ]);
}
