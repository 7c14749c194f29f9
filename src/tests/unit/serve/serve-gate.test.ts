// `claude-agent-acp serve`'s command line, token and gate: who gets in, and what is refused
// at start.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { refusal } from "../../../serve/gate.js";
import {
  DEFAULT_GRACE_SECONDS,
  DEFAULT_DROP_AFTER_SECONDS,
  parseServeArguments,
} from "../../../serve/serve-options.js";
import { bearerMatches, serverToken } from "../../../serve/token.js";

describe("serve's arguments", () => {
  it("default to a free port on 127.0.0.1, no origin allowed, the default grace period", () => {
    expect(parseServeArguments([])).toEqual({
      kind: "serve",
      options: {
        host: "127.0.0.1",
        port: 0,
        allowedOrigins: [],
        graceMs: DEFAULT_GRACE_SECONDS * 1000,
        dropAfterMs: DEFAULT_DROP_AFTER_SECONDS * 1000,
      },
    });
  });

  it("take IPv6 in brackets, origins, files and a grace period", () => {
    const parsed = parseServeArguments([
      "--listen",
      "[::1]:8080",
      "--allow-origin",
      "https://editor.example",
      "--token-file",
      "t",
      "--url-file",
      "u",
      "--reconnect-grace",
      "0",
      "--drop-after",
      "5",
    ]);
    expect(parsed).toEqual({
      kind: "serve",
      options: {
        host: "::1",
        port: 8080,
        allowedOrigins: ["https://editor.example"],
        tokenFile: "t",
        urlFile: "u",
        graceMs: 0,
        dropAfterMs: 5000,
      },
    });
  });

  it("refuse a non-loopback address without a token file", () => {
    for (const listen of ["0.0.0.0:1", "192.168.1.2:1", "[::]:1", "example.com:1"]) {
      expect(parseServeArguments(["--listen", listen])).toMatchObject({ kind: "error" });
      expect(parseServeArguments(["--listen", listen, "--token-file", "t"])).toMatchObject({
        kind: "serve",
      });
    }
    expect(parseServeArguments(["--listen", "localhost:1"])).toMatchObject({ kind: "serve" });
  });

  it("refuse what they cannot read, saying which argument", () => {
    const errors: string[][] = [
      ["--listen", "8080"],
      ["--listen", "127.0.0.1:70000"],
      ["--listen", "[nothost]:1"],
      ["--allow-origin", "https://editor.example/path"],
      ["--allow-origin", "*"],
      ["--reconnect-grace", "1.5"],
      ["--reconnect-grace", "-1"],
      ["--token-file"],
      ["--bogus"],
    ];
    for (const argv of errors) {
      const parsed = parseServeArguments(argv);
      expect(parsed.kind, argv.join(" ")).toBe("error");
    }
    expect(parseServeArguments(["--help"])).toEqual({ kind: "help" });
  });
});

describe("the token", () => {
  it("is the token file's first line, of at least 16 printable characters", async () => {
    const dir = await mkdtemp(join(tmpdir(), "serve-token-"));
    const file = join(dir, "token");
    await writeFile(file, "abcdefghijklmnop\nsecond line\n");
    expect(await serverToken(file)).toBe("abcdefghijklmnop");
    await writeFile(file, "short\n");
    await expect(serverToken(file)).rejects.toThrow(/at least 16/);
    await writeFile(file, "has a space in it, sadly\n");
    await expect(serverToken(file)).rejects.toThrow(/printable/);
  });

  it("is a new random one without a file", async () => {
    const [a, b] = [await serverToken(undefined), await serverToken(undefined)];
    expect(a).not.toBe(b);
    expect(a.length).toBeGreaterThanOrEqual(43);
  });

  it("matches a Bearer header carrying exactly it", () => {
    const token = "abcdefghijklmnop";
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(token, token)).toBe(false);
    expect(bearerMatches(`Bearer ${token}x`, token)).toBe(false);
    expect(bearerMatches(`Bearer ${token.slice(0, -1)}`, token)).toBe(false);
    expect(bearerMatches(`Basic ${token}`, token)).toBe(false);
    expect(bearerMatches(undefined, token)).toBe(false);
    expect(bearerMatches("Bearer ", token)).toBe(false);
  });
});

describe("the gate", () => {
  const admission = { token: "abcdefghijklmnop", allowedOrigins: ["https://editor.example"] };
  const auth = { authorization: "Bearer abcdefghijklmnop" };

  it("lets in a request with the token, at /acp, from no origin or an allowed one", () => {
    expect(refusal({ url: "/acp", headers: auth }, admission)).toBeUndefined();
    expect(refusal({ url: "/acp/?x=1", headers: auth }, admission)).toBeUndefined();
    const allowed = { ...auth, origin: "https://editor.example" };
    expect(refusal({ url: "/acp", headers: allowed }, admission)).toBeUndefined();
  });

  it("refuses with 401 before it says anything else: no token, a wrong one", () => {
    expect(refusal({ url: "/nowhere", headers: {} }, admission)).toBe(401);
    const wrong = { authorization: "Bearer abcdefghijklmnoq", origin: "https://evil.example" };
    expect(refusal({ url: "/acp", headers: wrong }, admission)).toBe(401);
  });

  it("refuses an origin not allowed with 403, and another path with 404", () => {
    const evil = { ...auth, origin: "https://evil.example" };
    expect(refusal({ url: "/acp", headers: evil }, admission)).toBe(403);
    expect(refusal({ url: "/", headers: auth }, admission)).toBe(404);
    expect(refusal({ url: "/acpx", headers: auth }, admission)).toBe(404);
  });
});
