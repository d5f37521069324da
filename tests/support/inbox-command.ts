import { Readable, Writable } from "node:stream";
import { parseConfig } from "~/config.server";
import { runInboxCommand } from "../../server/cli/inbox";

/**
 * `npm run inbox -- ARGS` run inside the test's own process: the same command code as the built CLI
 * (server/cli/inbox.ts), with the environment a CLI started with `env` would read, and `input` on its stdin. A test
 * whose subject is the CLI as a process (its exit on a bad variable, a pipe closed early, the Node.js check) starts
 * build/server/cli.js instead (tests/integration/inbox-script.test.ts); every other test saves the ~0.4 s of CPU a
 * Node.js process takes to load it.
 */
export interface CommandResult {
  /** The exit code the CLI would have ended with. */
  status: number;
  stdout: string;
  stderr: string;
}

export async function runInbox(
  args: readonly string[],
  { env = {}, input = "" }: { env?: Record<string, string | undefined>; input?: string } = {},
): Promise<CommandResult> {
  // As build/server/cli.js starts: its own environment, production unless told otherwise.
  const config = parseConfig({ ...process.env, NODE_ENV: "production", ...env });
  const out = { stdout: "", stderr: "" };
  const collect = (name: keyof typeof out) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        out[name] += chunk.toString("utf8");
        done();
      },
    });
  const status = await runInboxCommand(args, {
    stdout: collect("stdout"),
    stderr: collect("stderr"),
    // Not a terminal: a password is read as the first line, as from a pipe.
    stdin: Readable.from([Buffer.from(input)]),
    config,
  });
  return { status, ...out };
}
