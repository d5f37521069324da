import type { Writable } from "node:stream";
import { passwordProblem } from "~/owner/password-policy.server";
import { hashPassword } from "~/owner/password.server";
import { visible } from "~/text/safety";
import { commandConfig, openStoreForCommand, type CommandIo } from "./command-io";

/**
 * `npm run inbox -- operator ...` and `npm run inbox -- activity`: who may log in to /inbox, and what was done there.
 * Passwords never come from arguments or the environment (both end up in shell histories and process lists): they are
 * read from stdin when it is not a terminal (`... operator add EMAIL < file`), and asked twice, unechoed, on a terminal.
 */

export const ownerUsage = `  operator add EMAIL            add an operator, or set a new password (ends their sessions);
                                the password comes from stdin, or is asked twice on a terminal
  operator list                 the operators
  operator remove EMAIL         remove an operator (ends their sessions)
  operator revoke-sessions EMAIL  log an operator out everywhere
  operator reset-2fa EMAIL      remove an operator's passkeys, one-time codes and recovery codes (a lost phone);
                                ends their sessions; they set up a new factor at their next login
  activity [--limit N]          the inbox's activity log, newest first (default 100)
`;

const actor = "command line";
const plainAddress = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const isOwnerCommand = (argv: readonly string[]) => argv[0] === "operator" || argv[0] === "activity";

/** Resolves with the exit code (0 done, 1 failed, 2 wrong usage). */
export async function runOwnerCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const [command, sub, ...rest] = argv;
  const wrong = (message: string) => {
    io.stderr.write(`inbox: ${message}\nTry 'npm run inbox -- --help'.\n`);
    return 2;
  };
  let limit = 100;
  if (command === "activity") {
    const args = [sub, ...rest].filter((arg) => arg !== undefined);
    if (args.length === 2 && args[0] === "--limit" && /^\d{1,6}$/.test(args[1]!)) limit = Number(args[1]);
    else if (args.length > 0) return wrong("activity takes only --limit N");
  } else {
    const needsEmail = ["add", "remove", "revoke-sessions", "reset-2fa"];
    if (sub === "list" ? rest.length > 0 : !needsEmail.includes(sub ?? "") || rest.length !== 1)
      return wrong("operator add|remove|revoke-sessions|reset-2fa EMAIL, or operator list");
    if (sub !== "list" && !plainAddress.test(rest[0]!)) return wrong(`not an e-mail address: ${visible(rest[0]!)}`);
  }

  let password: string | undefined;
  if (command === "operator" && sub === "add") {
    try {
      password = await readNewPassword(io);
    } catch (error) {
      io.stderr.write(`inbox: ${(error as Error).message}\n`);
      return 1;
    }
    const problem = await passwordProblem(password, { email: rest[0]! });
    if (problem) {
      io.stderr.write(`inbox: ${problem}. Nothing was changed.\n`);
      return 1;
    }
  }

  const config = commandConfig(io);
  const store = await openStoreForCommand(io);
  if (!store) return 1;
  try {
    if (command === "activity") {
      const entries = await store.listActivity({ limit });
      if (entries.length === 0) io.stdout.write("No activity yet.\n");
      for (const entry of entries) {
        const when = `${entry.at.toISOString().slice(0, 19).replace("T", " ")} UTC`;
        const parts = [when, visible(entry.actor), visible(entry.action)];
        if (entry.detail) parts.push(visible(entry.detail));
        if (entry.enquiryId) parts.push(`[${entry.enquiryId}]`);
        io.stdout.write(`${parts.join("  ")}\n`);
      }
      return 0;
    }
    const email = rest[0] ?? "";
    const shown = visible(email);
    if (sub === "list") {
      const operators = await store.listOperators();
      if (operators.length === 0)
        io.stdout.write("No operators yet: add one with `npm run inbox -- operator add EMAIL`.\n");
      for (const operator of operators)
        io.stdout.write(`${visible(operator.email)}  (added ${operator.createdAt.toISOString().slice(0, 10)})\n`);
      return 0;
    }
    if (sub === "add") {
      const { created } = await store.putOperator(email, await hashPassword(password!));
      await store.logActivity({
        actor,
        action: created ? "operator added" : "operator password changed",
        detail: email,
      });
      io.stdout.write(
        created
          ? `Operator ${shown} added: log in at ${config.publicUrl}/inbox\n`
          : `New password set for ${shown}; their sessions have ended.\n`,
      );
      return 0;
    }
    if (sub === "remove") {
      if (!(await store.removeOperator(email))) {
        io.stderr.write(`inbox: no operator ${shown}\n`);
        return 1;
      }
      await store.logActivity({ actor, action: "operator removed", detail: email });
      io.stdout.write(`Operator ${shown} removed; their sessions have ended.\n`);
      return 0;
    }
    if (sub === "reset-2fa") {
      const reset = await store.resetFactors(email);
      if (reset === null) {
        io.stderr.write(`inbox: no operator ${shown}\n`);
        return 1;
      }
      const sessions = `${reset.sessions} ${reset.sessions === 1 ? "session" : "sessions"}`;
      await store.logActivity({ actor, action: "second factor reset", detail: `${email} (${sessions} ended)` });
      io.stdout.write(
        `Second factor of ${shown} reset: passkeys, one-time codes and recovery codes removed; ${sessions} ended.\n` +
          (config.requireSecondFactor !== false
            ? "At their next login they set up a new passkey or one-time codes before they see any enquiry.\n"
            : "INBOX_REQUIRE_2FA is off: they log in with the password alone until they set one up again.\n"),
      );
      return 0;
    }
    const ended = await store.revokeSessions(email);
    if (ended === null) {
      io.stderr.write(`inbox: no operator ${shown}\n`);
      return 1;
    }
    await store.logActivity({ actor, action: "sessions revoked", detail: `${email} (${ended})` });
    io.stdout.write(`${ended} ${ended === 1 ? "session" : "sessions"} of ${shown} ended.\n`);
    return 0;
  } catch (error) {
    io.stderr.write(`inbox: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await store.close();
  }
}

async function readNewPassword(io: CommandIo): Promise<string> {
  const stdin = io.stdin ?? (process.stdin as CommandIo["stdin"])!;
  if (!stdin.isTTY) {
    // The first line of stdin (a file, a pipe, a secret mounted by the orchestrator); its line break is not part of it.
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
    const [first = ""] = Buffer.concat(chunks).toString("utf8").split(/\r?\n/);
    if (!first) throw new Error("no password on stdin (give it as the first line)");
    return first;
  }
  const first = await askHidden(stdin, io.stderr, "New password (12 to 128 characters): ");
  const second = await askHidden(stdin, io.stderr, "The same password again: ");
  if (first !== second) throw new Error("the two passwords differ. Nothing was changed.");
  return first;
}

/** One line from the terminal without echoing it. */
function askHidden(stdin: NonNullable<CommandIo["stdin"]>, out: Writable, prompt: string): Promise<string> {
  out.write(prompt);
  stdin.setRawMode?.(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let typed = "";
    const done = (error?: Error) => {
      stdin.off("data", onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      out.write("\n");
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (data: Buffer) => {
      for (const char of data.toString("utf8")) {
        if (char === "\r" || char === "\n") return done();
        if (char === "\u0003" || char === "\u0004") return done(new Error("cancelled. Nothing was changed."));
        if (char === "\u007f" || char === "\b") typed = [...typed].slice(0, -1).join("");
        else if (char >= " ") typed += char;
      }
    };
    stdin.on("data", onData);
  });
}
