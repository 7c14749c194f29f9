// Claude Code's session ids are UUIDs; they name files (transcripts, task directories), so an
// id from a client is used in a path only when it can be one.
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isSessionId(id: string): boolean {
  return SESSION_ID.test(id);
}
