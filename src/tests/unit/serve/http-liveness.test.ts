// A Streamable HTTP connection whose client is gone is closed (serve/http-liveness.ts): a
// live client holds an event stream open; one with none open for the linger is dropped.
import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HttpLiveness } from "../../../serve/http-liveness.js";

const LINGER = 1_000;

function exchange(method: string, connectionId?: string, answerId?: string) {
  const request = { method, headers: connectionId ? { "acp-connection-id": connectionId } : {} };
  const response = Object.assign(new EventEmitter(), {
    getHeader: (name: string) => (name === "acp-connection-id" ? answerId : undefined),
  });
  return {
    request: request as unknown as IncomingMessage,
    response: response as unknown as ServerResponse,
    finish: () => response.emit("finish"),
    close: () => response.emit("close"),
  };
}

describe("HttpLiveness", () => {
  let closed: string[];
  let liveness: HttpLiveness;
  beforeEach(() => {
    vi.useFakeTimers();
    closed = [];
    liveness = new HttpLiveness(LINGER, (id) => closed.push(id));
  });
  afterEach(() => vi.useRealTimers());

  const initialize = (id: string) => {
    const init = exchange("POST", undefined, id);
    liveness.observe(init.request, init.response);
    init.finish();
  };
  const stream = (id: string) => {
    const get = exchange("GET", id);
    liveness.observe(get.request, get.response);
    return get;
  };

  it("closes a connection that never opens a stream, once the linger has passed", () => {
    initialize("c1");
    vi.advanceTimersByTime(LINGER - 1);
    expect(closed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(closed).toEqual(["c1"]);
  });

  it("keeps a connection while one of its streams is open, even one opened before its initialize was seen to finish", () => {
    const early = stream("c1");
    initialize("c1");
    vi.advanceTimersByTime(LINGER * 10);
    expect(closed).toEqual([]);
    const second = stream("c1");
    early.close();
    vi.advanceTimersByTime(LINGER * 10);
    expect(closed).toEqual([]);
    second.close();
    vi.advanceTimersByTime(LINGER);
    expect(closed).toEqual(["c1"]);
  });

  it("forgets a connection its client deleted", () => {
    initialize("c1");
    const del = exchange("DELETE", "c1");
    liveness.observe(del.request, del.response);
    vi.advanceTimersByTime(LINGER * 2);
    expect(closed).toEqual([]);
  });

  it("a stream that opens again within the linger keeps the connection", () => {
    initialize("c1");
    stream("c1").close();
    vi.advanceTimersByTime(LINGER / 2);
    stream("c1");
    vi.advanceTimersByTime(LINGER * 2);
    expect(closed).toEqual([]);
  });
});
