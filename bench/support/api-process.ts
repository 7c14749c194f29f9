// The scripted Anthropic API in a process of its own, so serving 20,000 SSE events never
// competes with the bench client or the in-process SDK baseline for one event loop.
// Prints {"url": ...} on stdout once listening; exits when its stdin closes or on SIGTERM.
import { startScriptedApi } from "../../src/scripted-api/index.js";
import { benchTurn } from "./scenarios.js";

// Every main request is answered by the same function; the script never runs out.
const api = await startScriptedApi(
  { name: "bench", turns: Array.from({ length: 100_000 }, () => benchTurn) },
  { cursor: "server" },
);
process.stdout.write(`${JSON.stringify({ url: api.url })}\n`);

const stop = (): void => {
  void api.close().finally(() => process.exit(0));
};
process.stdin.on("end", stop);
process.stdin.on("error", stop);
process.stdin.resume();
process.once("SIGTERM", stop);
