// The terminal client's command line: an agent command, or a served agent by URL.
import { describe, expect, it } from "vitest";
import { parseArgs } from "../../client/args.js";
import { agentUrl } from "../../client/agent/remote-agent.js";

describe("the client's arguments", () => {
  it("take an agent command after --", () => {
    const parsed = parseArgs(["hello", "--", "claude-agent-acp"]);
    expect(parsed).toMatchObject({
      kind: "run",
      args: { agentCommand: ["claude-agent-acp"], prompts: ["hello"] },
    });
  });

  it("take a served agent's URL with its token file instead", () => {
    const parsed = parseArgs(["--url", "ws://127.0.0.1:1/acp", "--token-file", "t"]);
    expect(parsed).toMatchObject({
      kind: "run",
      args: { agentCommand: [], url: "ws://127.0.0.1:1/acp", tokenFile: "t" },
    });
  });

  it("refuse a URL without a token file, both a URL and a command, and neither", () => {
    const errors = [
      ["--url", "ws://127.0.0.1:1"],
      ["--url", "ws://127.0.0.1:1", "--token-file", "t", "--", "agent"],
      ["--token-file", "t", "--", "agent"],
      [],
    ];
    for (const argv of errors) expect(parseArgs(argv).kind, argv.join(" ")).toBe("error");
  });
});

describe("a served agent's URL", () => {
  it("picks the transport by scheme, and /acp when it names no path", () => {
    expect(agentUrl("ws://127.0.0.1:8765")).toEqual({
      url: "ws://127.0.0.1:8765/acp",
      transport: "websocket",
    });
    expect(agentUrl("wss://dev.example/acp")).toEqual({
      url: "wss://dev.example/acp",
      transport: "websocket",
    });
    expect(agentUrl("https://dev.example/agents/acp")).toEqual({
      url: "https://dev.example/agents/acp",
      transport: "http",
    });
  });

  it("refuses what is no URL, or another scheme", () => {
    expect(() => agentUrl("127.0.0.1:8765")).toThrow(/ws:\/\//);
    expect(() => agentUrl("ftp://dev.example")).toThrow(/must start with/);
  });
});
