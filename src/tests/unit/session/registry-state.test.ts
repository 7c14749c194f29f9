// Who hears that work started or ended in an open session (session/registry.ts): the registry
// the session is open in now. A served connection that takes a session over adopts it into its
// own registry; the list subscriptions of that connection then follow its work.
import { describe, expect, it } from "vitest";
import { SessionRegistry } from "../../../session/registry.js";
import type { Session } from "../../../session/session.js";

/** The part of a session the registry drives, with a way to report work. */
function openSession(id: string) {
  const session = {
    id,
    onStateChange: undefined as ((id: string) => void) | undefined,
    close() {},
  };
  return { session: session as unknown as Session, work: () => session.onStateChange?.(id) };
}

describe("a session's work is heard by the registry it is open in", () => {
  it("an added session's start and end of work reach the registry's listeners, until they stop listening", () => {
    const registry = new SessionRegistry();
    const heard: string[] = [];
    const stop = registry.onStateChange((id) => heard.push(id));
    const { session, work } = openSession("s1");
    registry.add(session);
    work();
    expect(heard).toEqual(["s1"]);
    stop();
    work();
    expect(heard).toEqual(["s1"]);
  });

  it("a session another registry adopts (a takeover) is heard there, no longer where it was", () => {
    const first = new SessionRegistry();
    const second = new SessionRegistry();
    const heardFirst: string[] = [];
    const heardSecond: string[] = [];
    first.onStateChange((id) => heardFirst.push(id));
    second.onStateChange((id) => heardSecond.push(id));
    const { session, work } = openSession("s1");
    first.add(session);
    first.remove("s1");
    second.add(session);
    work();
    expect(heardFirst).toEqual([]);
    expect(heardSecond).toEqual(["s1"]);
  });
});
