import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { dkimEnv, dkimKeyBits } from "~/config/dkim.server";
import { dkimRecordName, generateDkimKeyPair, txtStrings } from "~/notify/dkim-key.server";
import { commandConfig, type CommandIo } from "./command-io";

/**
 * `npm run inbox -- dkim generate`: a new RSA key pair for DKIM (docs/operating.md): the private key written to a
 * file only its owner reads, never over an existing one, and the DNS TXT record to publish printed, with the variables
 * to set once it resolves. It needs no database and changes nothing else.
 */

export const dkimUsage = `  dkim generate [--selector NAME] [--domain DOMAIN] [--out FILE]
                                a new ${dkimKeyBits.generated}-bit RSA key for DKIM signing: the private key to FILE
                                (default dkim-NAME.pem; never overwritten), and the DNS TXT record to publish.
                                NAME defaults to site and this year and month (e.g. site202611), DOMAIN to
                                DKIM_DOMAIN, else NOTIFY_EMAIL_FROM's domain
`;

export const isDkimCommand = (argv: readonly string[]) => argv[0] === "dkim";

function wrongUsage(io: CommandIo, message: string): number {
  io.stderr.write(`inbox: ${message}\nTry 'npm run inbox -- --help'.\n`);
  return 2;
}

/** A new selector each month by default: a rotated key is published beside the old one, never in its place. */
const defaultSelector = (now: Date) => `site${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, "0")}`;

export function runDkimCommand(argv: readonly string[], io: CommandIo, now = new Date()): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.slice(1),
      options: { selector: { type: "string" }, domain: { type: "string" }, out: { type: "string" } },
      allowPositionals: true,
    });
  } catch (error) {
    return wrongUsage(io, (error as Error).message);
  }
  if (parsed.positionals.length !== 1 || parsed.positionals[0] !== "generate")
    return wrongUsage(io, "dkim takes generate");
  const selector = dkimEnv.shape.DKIM_SELECTOR.safeParse(parsed.values.selector ?? defaultSelector(now));
  if (!selector.success || !selector.data)
    return wrongUsage(io, `--selector: ${selector.error?.issues[0]?.message ?? "must not be empty"}`);
  const config = commandConfig(io);
  const fromDomain = config.notify?.email?.from.split("@").pop();
  const domain = dkimEnv.shape.DKIM_DOMAIN.safeParse(parsed.values.domain ?? config.dkim?.domainName ?? fromDomain);
  if (!domain.success) return wrongUsage(io, `--domain: ${domain.error.issues[0]?.message}`);
  if (!domain.data)
    return wrongUsage(io, "--domain: give the domain to sign for (DKIM_DOMAIN and NOTIFY_EMAIL_FROM are not set)");
  if (selector.data === config.dkim?.keySelector && domain.data === config.dkim.domainName)
    return wrongUsage(
      io,
      `--selector: ${selector.data} is the selector in use (DKIM_SELECTOR): a new key needs a new one, published beside it`,
    );

  const file = resolve(parsed.values.out ?? `dkim-${selector.data}.pem`);
  const { privateKeyPem, txtValue } = generateDkimKeyPair();
  try {
    // wx: never over an existing file (it may be the key in use); 0600: the key is a secret.
    writeFileSync(file, privateKeyPem, { flag: "wx", mode: 0o600 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    io.stderr.write(
      code === "EEXIST"
        ? `inbox: ${file} already exists: nothing was written (choose another --out, or move that file first).\n`
        : `inbox: cannot write ${file}: ${(error as Error).message}\n`,
    );
    return 1;
  }
  const name = dkimRecordName(selector.data, domain.data);
  io.stdout.write(
    `Wrote a new ${dkimKeyBits.generated}-bit RSA private key to ${file} (readable by its owner only: keep it secret).\n\n` +
      "1. Publish this DNS TXT record at your DNS provider:\n\n" +
      `   Name:  ${name}\n` +
      `   Type:  TXT\n` +
      `   Value: ${txtValue}\n\n` +
      "   In a zone file (the value in strings of at most 255 characters):\n\n" +
      `   ${name}. 3600 IN TXT ( ${txtStrings(txtValue)
        .map((part) => `"${part}"`)
        .join(" ")} )\n\n` +
      `2. Wait until it resolves: dig +short TXT ${name}\n\n` +
      "3. Set these variables and restart every instance of the site:\n\n" +
      `   DKIM_DOMAIN=${domain.data}\n` +
      `   DKIM_SELECTOR=${selector.data}\n` +
      `   DKIM_PRIVATE_KEY_FILE=${file}\n\n` +
      "   (the file must be readable by the user the site runs as; in a container, put it in a mounted volume).\n" +
      "   SPF and DMARC for the domain: see docs/operating.md.\n",
  );
  return 0;
}
