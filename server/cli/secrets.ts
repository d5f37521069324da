import { describeDatabase } from "~/config.server";
import { isSecretsKeyError, keyIdOf } from "~/store/sealed-secrets.server";
import { forgetLostSecrets, rotateSealedSecrets } from "~/store/store.server";
import { commandConfig, type CommandIo } from "./command-io";

/**
 * `npm run inbox -- secrets rotate` (ADR 0034): every stored secret sealed again under SECRETS_KEY_NEW. The new key
 * comes from the environment, like SECRETS_KEY itself, so it works in `docker exec -e SECRETS_KEY_NEW=… CONTAINER`
 * without a terminal; the operator then replaces SECRETS_KEY with it and restarts.
 */

export const secretsUsage = `  secrets rotate                seal the one-time-code secrets again under SECRETS_KEY_NEW (SECRETS_KEY: the
                                key they are sealed with now); then set SECRETS_KEY to the new key and restart
  secrets forget                a key lost for good: remove the one-time codes that do not open with SECRETS_KEY
                                (their operators set codes up again after their password)
`;

export const isSecretsCommand = (argv: readonly string[]) => argv[0] === "secrets";

export async function runSecretsCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  if (argv.length !== 2 || !["rotate", "forget"].includes(argv[1]!)) {
    io.stderr.write("inbox: secrets takes rotate or forget\nTry 'npm run inbox -- --help'.\n");
    return 2;
  }
  const config = commandConfig(io);
  if (argv[1] === "forget") {
    try {
      const forgotten = await forgetLostSecrets(config.database, {
        timeoutMs: Math.max(config.storeTimeoutMs, 10_000),
        secretsKey: config.secretsKey,
      });
      // One line per kind of secret that did not open with SECRETS_KEY, saying what follows from it.
      const lines = [
        forgotten.codes &&
          `Removed the one-time codes of ${forgotten.codes} operator(s): they set codes up again after their password.`,
        forgotten.buildPages &&
          `Revoked ${forgotten.buildPages} build page(s): share a new link from the enquiry's page.`,
        forgotten.confirmLinks &&
          `Ended ${forgotten.confirmLinks} waitlist confirmation link(s): those visitors ask again from the form.`,
        forgotten.unsubscribeLinks &&
          `Replaced ${forgotten.unsubscribeLinks} waitlist unsubscribe link(s): the next mails carry the new ones.`,
      ].filter((line): line is string => Boolean(line));
      io.stdout.write(
        lines.length === 0
          ? "Every stored secret opens with SECRETS_KEY: nothing was removed.\n"
          : `These secrets did not open with SECRETS_KEY:\n${lines.map((line) => `- ${line}\n`).join("")}`,
      );
      return 0;
    } catch (error) {
      io.stderr.write(`inbox: cannot forget in ${describeDatabase(config.database)}: ${(error as Error).message}\n`);
      return 1;
    }
  }
  const newKey = config.secretsKeyNew;
  if (!newKey) {
    io.stderr.write(
      'inbox: SECRETS_KEY_NEW is not set: give the new key in it (e.g. docker exec -e SECRETS_KEY_NEW="$(openssl rand -base64 32)" …); nothing was changed.\n',
    );
    return 1;
  }
  try {
    const { resealed, already } = await rotateSealedSecrets(config.database, {
      timeoutMs: Math.max(config.storeTimeoutMs, 10_000),
      secretsKey: config.secretsKey,
      newKey,
    });
    io.stdout.write(
      `${resealed} secret(s) sealed under the new key (key id ${keyIdOf(newKey)})` +
        (already > 0 ? `, ${already} already were` : "") +
        ". Now set SECRETS_KEY to the value of SECRETS_KEY_NEW and restart every instance of the site.\n",
    );
    return 0;
  } catch (error) {
    const message = (error as Error).message;
    io.stderr.write(
      isSecretsKeyError(error)
        ? `inbox: ${message} Nothing was changed.\n`
        : `inbox: cannot rotate in ${describeDatabase(config.database)}: ${message}\n`,
    );
    return 1;
  }
}
