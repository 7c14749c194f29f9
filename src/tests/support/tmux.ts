// A tmux server of our own for tests of the terminal client: keys in, the screen captured.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { promisify } from "node:util";

const run = promisify(execFile);

/** One tmux server of our own (its own socket), killed in teardown. */
export class Tmux {
  readonly socket = `claude-agent-acp-client-test-${process.pid}-${randomUUID().slice(0, 8)}`;

  private tmux(...args: string[]): Promise<{ stdout: string }> {
    return run("tmux", ["-u", "-L", this.socket, "-f", "/dev/null", ...args]);
  }

  private socketPath: string | undefined;

  async start(command: string, size = { columns: 110, rows: 40 }, cwd?: string): Promise<void> {
    const at = cwd ? ["-c", cwd] : [];
    const [x, y] = [String(size.columns), String(size.rows)];
    await this.tmux("new-session", "-d", ...at, "-x", x, "-y", y, command);
    this.socketPath = (await this.tmux("display-message", "-p", "#{socket_path}")).stdout.trim();
  }

  /** The pane with its scrollback, as text. */
  async capture(): Promise<string> {
    return (await this.tmux("capture-pane", "-p", "-J", "-S", "-")).stdout;
  }

  /** Where the terminal's cursor is: column and row of the visible screen, from 0. */
  async cursor(): Promise<{ column: number; row: number }> {
    const { stdout } = await this.tmux("display-message", "-p", "#{cursor_x} #{cursor_y}");
    const [column, row] = stdout.trim().split(" ").map(Number);
    return { column: column!, row: row! };
  }

  async keys(...keys: string[]): Promise<void> {
    await this.tmux("send-keys", ...keys);
  }

  /**
   * Pastes `text` as a terminal does (bracketed, when the program asked for it); with
   * `bracketed: false` as one that does not bracket pastes: each line ends in a CR.
   */
  async paste(text: string, options: { bracketed?: boolean } = {}): Promise<void> {
    await this.tmux("set-buffer", "--", text);
    await this.tmux("paste-buffer", ...(options.bracketed === false ? [] : ["-p"]), "-d");
  }

  /**
   * Copies what the program writes to the pane from now on into `file` (to measure how much
   * it writes, escapes and redrawn rows included), until `stopRecording`.
   */
  async record(file: string): Promise<void> {
    await this.tmux("pipe-pane", "-O", `cat >> '${file.replace(/'/g, `'\\''`)}'`);
  }

  async stopRecording(): Promise<void> {
    await this.tmux("pipe-pane");
  }

  async resize(columns: number, rows: number): Promise<void> {
    await this.tmux("resize-window", "-x", String(columns), "-y", String(rows));
  }

  async waitFor(pattern: RegExp, timeoutMs = 25_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = await this.capture();
      if (pattern.test(screen)) return screen;
      const exited = /\[client exited \d+\]/.test(screen);
      if (exited || Date.now() > deadline) {
        const why = exited ? "the client exited" : "timed out";
        throw new Error(`${why} waiting for ${pattern}; screen:\n${screen}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Kills the server and removes its socket file (tmux leaves it behind). */
  async kill(): Promise<void> {
    await this.tmux("kill-server").catch(() => undefined);
    if (this.socketPath) await rm(this.socketPath, { force: true });
  }
}
