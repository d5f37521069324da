import addressparser from "nodemailer/lib/addressparser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DeliveryError } from "~/notify/channels/channel";
import { composeEmail, createEmailChannel, isSingleMailbox } from "~/notify/channels/email.server";
import { smtpOptions } from "~/notify/mail-transport.server";
import type { StoredEnquiry } from "~/store/records";
import { storedEnquiry } from "../support/enquiry";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../support/smtp-sink";
import { localhostCertificate } from "../support/tls-cert";

const owners = ["owner@grimforge.example", "workshop@grimforge.example"];
const from = "site@grimforge.example";

const enquiry = (overrides: Partial<StoredEnquiry> = {}) =>
  storedEnquiry("We need a 9 ft animatronic scarecrow for a corn maze.\nBudget around $4k.", overrides);

/** Every address in one header, parsed the way a mail client would. */
function addresses(mail: ReceivedMail, header: string): string[] {
  return (mail.headers.get(header) ?? []).flatMap((value) =>
    addressparser(value, { flatten: true }).map((a) => a.address),
  );
}

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.stop());
beforeEach(() => sink.setMode("accept"));

async function sendOne(e: StoredEnquiry): Promise<ReceivedMail> {
  const channel = createEmailChannel({ smtpUrl: sink.url, to: owners, from });
  try {
    await channel.send(e, AbortSignal.timeout(10_000));
  } finally {
    channel.close();
  }
  const [mail, ...more] = sink.forEnquiry(e.id);
  expect(more).toHaveLength(0);
  expect(mail).toBeDefined();
  return mail!;
}

describe("the e-mail for an enquiry", () => {
  it("goes to every NOTIFY_EMAIL_TO address in one message, from NOTIFY_EMAIL_FROM, with Reply-To the visitor", async () => {
    const e = enquiry();
    const mail = await sendOne(e);
    expect(mail.envelope).toEqual({ from, to: owners });
    expect(addresses(mail, "to")).toEqual(owners);
    expect(addresses(mail, "from")).toEqual([from]);
    expect(mail.headers.get("from")?.[0]).toContain("Grimforge Haunt Props website");
    expect(addresses(mail, "reply-to")).toEqual(["ann@visitor.example"]);
    expect(mail.headers.get("subject")).toEqual(["New enquiry from Ann Visitor"]);
    expect(mail.headers.has("cc")).toBe(false);
    expect(mail.headers.has("bcc")).toBe(false);
    expect(mail.headers.get("content-type")?.[0]).toMatch(/^text\/plain; charset=utf-8/i);
  });

  it("uses the display name NOTIFY_EMAIL_FROM gives, quoted safely", async () => {
    const channel = createEmailChannel({ smtpUrl: sink.url, to: owners, from, fromName: "Grimforge, the website" });
    const e = enquiry();
    await channel.send(e, AbortSignal.timeout(10_000));
    channel.close();
    const [mail] = sink.forEnquiry(e.id);
    expect(mail!.headers.get("from")).toEqual([`"Grimforge, the website" <${from}>`]);
    expect(addresses(mail!, "from")).toEqual([from]);
  });

  it("has the name, address, time, id and the whole message in its plain-text body", async () => {
    const e = enquiry();
    const mail = await sendOne(e);
    expect(mail.text).toContain("Name: Ann Visitor\n");
    expect(mail.text).toContain("E-mail: ann@visitor.example\n");
    expect(mail.text).toContain("Received: 2026-10-01 18:30:05 UTC\n");
    expect(mail.text).toContain(`Enquiry: ${e.id}\n`);
    expect(mail.text).toContain(
      "Message:\nWe need a 9 ft animatronic scarecrow for a corn maze.\nBudget around $4k.\n",
    );
  });

  it("keeps non-ASCII names and messages intact (encoded headers, UTF-8 body)", async () => {
    const e = enquiry({ name: "Zoë Ødegård 🎃", message: "Ein Grusel-Tor für unsere Halloween-Nacht — 👻 bitte!" });
    const mail = await sendOne(e);
    expect(mail.headers.get("subject")).toEqual(["New enquiry from Zoë Ødegård 🎃"]);
    expect(mail.text).toContain("Name: Zoë Ødegård 🎃\n");
    expect(mail.text).toContain("Ein Grusel-Tor für unsere Halloween-Nacht — 👻 bitte!");
  });

  it("keeps a long message whole, with SMTP's end-of-data line and header-like lines left as text", async () => {
    const message = `${"x".repeat(3000)}\n.\nBcc: victim@evil.example\n..\nend`;
    const mail = await sendOne(enquiry({ message }));
    expect(mail.text).toContain(`${"x".repeat(3000)}\n.\nBcc: victim@evil.example\n..\nend\n`);
    expect(mail.headers.has("bcc")).toBe(false);
    expect(mail.envelope.to).toEqual(owners);
  });
});

describe("dates and encoded words", () => {
  it("has the sending time as Date, and the arrival time in the body", async () => {
    const e = enquiry({ receivedAt: new Date("2026-10-01T18:30:05.123Z") });
    const before = Date.now();
    const mail = await sendOne(e);
    const date = Date.parse(mail.headers.get("date")![0]!);
    expect(date).toBeGreaterThanOrEqual(before - 1_000);
    expect(date).toBeLessThanOrEqual(Date.now() + 1_000);
    expect(mail.text).toContain("Received: 2026-10-01 18:30:05 UTC\n");
    expect(composeEmail(e, { to: owners, from }, new Date("2026-10-02T09:00:00Z")).date).toEqual(
      new Date("2026-10-02T09:00:00Z"),
    );
  });

  it("leaves RFC 2047 encoded words in the name inert: no line break or bidi override once decoded", async () => {
    // "=?UTF-8?B?...?=" of "\r\nBcc: victim@evil.example\u202e": a mail client would decode it in the header.
    const sneaky = `=?UTF-8?B?${Buffer.from("\r\nBcc: victim@evil.example\u202e").toString("base64")}?=`;
    const e = enquiry({ name: `Eve ${sneaky}`, message: `Hi ${sneaky} =?utf-8?q?=0A=E2=80=AE?= bye` });
    const mail = await sendOne(e);
    // The sink decodes encoded words as a mail client does: what is left must not be a control or bidi character.
    const subject = mail.headers.get("subject")![0]!;
    expect(subject).not.toMatch(/[\r\n\u202e]/);
    expect(subject).toContain("= ?UTF-8?B?");
    const replyTo = mail.headers.get("reply-to")![0]!;
    expect(replyTo).not.toMatch(/[\r\n\u202e]|victim@evil.example/);
    expect(addresses(mail, "reply-to")).toEqual(["ann@visitor.example"]);
    expect(mail.headers.has("bcc")).toBe(false);
    expect(mail.text).toContain("Hi = ?UTF-8?B?");
    expect(mail.text).toContain("= ?utf-8?q?=0A=E2=80=AE? = bye");
  });
});

describe("no field can add a header or a recipient", () => {
  it.each([
    ["CR/LF and a Bcc in the name", { name: "Eve\r\nBcc: victim@evil.example\r\nX-Evil: 1" }],
    ["a bare LF in the name", { name: "Eve\nCc: victim@evil.example" }],
    ["an address-like name", { name: '"Boss" <victim@evil.example>, other@evil.example' }],
    ["CR/LF and a Bcc in the e-mail", { email: "eve@visitor.example\r\nBcc: victim@evil.example" }],
    ["two addresses in the e-mail", { email: "eve@visitor.example, victim@evil.example" }],
    ["a semicolon list in the e-mail", { email: "eve@visitor.example;victim@evil.example" }],
    ["a display name in the e-mail", { email: "Eve <victim@evil.example>" }],
    ["a group in the e-mail", { email: "friends: victim@evil.example, other@evil.example;" }],
    ["a header in the message", { message: "hello\r\n\r\nBcc: victim@evil.example\r\nSubject: hijacked" }],
    ["control and bidi characters in the name", { name: "Eve\u0000\u001b[31m\u202e\u0085Cc: victim@evil.example" }],
  ])("%s", async (_label, overrides) => {
    const e = enquiry(overrides);
    const mail = await sendOne(e);
    expect(mail.envelope.to).toEqual(owners);
    expect(addresses(mail, "to")).toEqual(owners);
    for (const header of ["cc", "bcc", "x-evil"]) expect(mail.headers.has(header)).toBe(false);
    expect(mail.headers.get("subject")).toHaveLength(1);
    // eslint-disable-next-line no-control-regex -- control characters are what must not get through
    expect(mail.headers.get("subject")![0]).not.toMatch(/[\r\n\u0000-\u001f\u202e]/);
    // Reply-To is one mailbox, the visitor's own, or absent when their address is not one plain mailbox.
    const replyTo = addresses(mail, "reply-to");
    if (isSingleMailbox(e.email)) expect(replyTo).toEqual([e.email]);
    else expect(replyTo).toEqual([]);
    const headerBlock = mail.raw.slice(0, mail.raw.indexOf("\r\n\r\n"));
    expect(headerBlock).not.toMatch(/^(bcc|cc|x-evil|subject: hijacked)/im);
    expect(mail.headers.get("subject")![0]).toMatch(/^New enquiry from /);
  });

  it("sends nothing to the visitor, whatever they typed", async () => {
    const e = enquiry({ email: "victim@evil.example" });
    const mail = await sendOne(e);
    expect(mail.envelope.to).not.toContain("victim@evil.example");
    expect(addresses(mail, "to")).not.toContain("victim@evil.example");
  });
});

describe("the SMTP connection", () => {
  it("logs in with the user and password from SMTP_URL (percent-encoded characters decoded), over STARTTLS", async () => {
    const certificate = localhostCertificate();
    const withAuth = await startSmtpSink({
      auth: { user: "site@grimforge.example", pass: "p@ss:w/rd" },
      starttls: true,
      tls: certificate,
    });
    try {
      const url = `smtp://${encodeURIComponent("site@grimforge.example")}:${encodeURIComponent("p@ss:w/rd")}@127.0.0.1:${withAuth.port}`;
      const channel = createEmailChannel({ smtpUrl: url, to: owners, from }, { ca: certificate.cert });
      const e = enquiry();
      await channel.send(e, AbortSignal.timeout(10_000));
      channel.close();
      expect(withAuth.forEnquiry(e.id)).toHaveLength(1);
      expect(withAuth.forEnquiry(e.id)[0]!.user).toBe("site@grimforge.example");
      // Nothing after STARTTLS crossed in clear text: no AUTH among the plain commands.
      expect(withAuth.plainCommands()).toEqual(["EHLO", "STARTTLS"]);

      const wrong = createEmailChannel(
        { smtpUrl: `smtp://site:wrong@127.0.0.1:${withAuth.port}`, to: owners, from },
        { ca: certificate.cert },
      );
      const failure = await wrong.send(enquiry(), AbortSignal.timeout(10_000)).catch((error: Error) => error);
      wrong.close();
      // 535: the server's own words, and permanent (the password will not get better by itself).
      expect(failure).toBeInstanceOf(DeliveryError);
      expect((failure as DeliveryError).permanent).toBe(true);
      expect((failure as Error).message).toMatch(/^SMTP server at 127\.0\.0\.1:\d+ refused: 535 .*invalid credentials/);
    } finally {
      await withAuth.stop();
    }
  });

  it("with a password in SMTP_URL and a server that offers no STARTTLS: fails, permanent, and never sends AUTH", async () => {
    const plain = await startSmtpSink({ auth: { user: "site", pass: "secret" } });
    try {
      const channel = createEmailChannel({ smtpUrl: `smtp://site:secret@127.0.0.1:${plain.port}`, to: owners, from });
      const e = enquiry();
      const failure = await channel.send(e, AbortSignal.timeout(10_000)).catch((error: Error) => error);
      channel.close();
      expect(failure).toBeInstanceOf(DeliveryError);
      expect((failure as DeliveryError).permanent).toBe(true);
      expect((failure as Error).message).toMatch(
        /does not offer STARTTLS.*password in SMTP_URL is not sent in clear text/,
      );
      expect((failure as Error).message).not.toContain("secret");
      expect(plain.connections()).toBe(1);
      expect(plain.plainCommands()).not.toContain("AUTH");
      expect(plain.forEnquiry(e.id)).toHaveLength(0);
    } finally {
      await plain.stop();
    }
  });

  it("without credentials, still sends over plain SMTP when the server offers no STARTTLS (nothing secret to protect)", async () => {
    const e = enquiry();
    await sendOne(e);
    expect(sink.plainCommands()).not.toContain("AUTH");
  });

  it("reads smtp:// as STARTTLS-when-offered on 587 and smtps:// as TLS on 465, with bounded timeouts", () => {
    expect(smtpOptions("smtp://mail.example.com")).toMatchObject({
      host: "mail.example.com",
      port: 587,
      secure: false,
    });
    expect(smtpOptions("smtp://mail.example.com:25")).toMatchObject({ port: 25, secure: false, requireTLS: false });
    expect(smtpOptions("smtp://u:p@mail.example.com")).toMatchObject({ secure: false, requireTLS: true });
    expect(smtpOptions("smtps://u:p%40ss@mail.example.com")).toMatchObject({
      port: 465,
      secure: true,
      auth: { user: "u", pass: "p@ss" },
    });
    const options = smtpOptions("smtp://mail.example.com") as Record<string, number>;
    for (const key of ["connectionTimeout", "greetingTimeout", "socketTimeout"])
      expect(options[key]).toBeLessThan(15_000);
  });

  it("upgrades with STARTTLS when the server offers it, and checks the certificate rather than falling back to plain text", async () => {
    const tlsSink = await startSmtpSink({ starttls: true });
    try {
      const channel = createEmailChannel({ smtpUrl: tlsSink.url, to: owners, from });
      await expect(channel.send(enquiry(), AbortSignal.timeout(10_000))).rejects.toThrow(/self.signed|certificate/i);
      channel.close();
      expect(tlsSink.connections()).toBe(1);
      expect(tlsSink.messages).toHaveLength(0);
    } finally {
      await tlsSink.stop();
    }
  });

  it("speaks TLS from the first byte for smtps://, so a plain server gets no message", async () => {
    const channel = createEmailChannel({ smtpUrl: sink.url.replace("smtp://", "smtps://"), to: owners, from });
    const before = sink.messages.length;
    await expect(channel.send(enquiry(), AbortSignal.timeout(10_000))).rejects.toThrow();
    channel.close();
    expect(sink.messages).toHaveLength(before);
  });

  it.each([
    [550, /550/],
    [451, /451/],
  ])(
    "fails the attempt when the server refuses with %i, without the visitor's words in the error",
    async (code, pattern) => {
      sink.setMode({ reject: code });
      const e = enquiry({ message: "secret plans for the haunt" });
      const channel = createEmailChannel({ smtpUrl: sink.url, to: owners, from });
      const failure = await channel.send(e, AbortSignal.timeout(10_000)).then(
        () => new Error("delivered"),
        (error: Error) => error,
      );
      channel.close();
      expect(failure.message).toMatch(pattern);
      expect(failure.message).not.toContain("secret plans");
      // 5xx: permanent (the notification fails at once); 4xx: tried again later.
      expect(failure instanceof DeliveryError && failure.permanent).toBe(code >= 500);
      expect(sink.forEnquiry(e.id)).toHaveLength(0);
    },
  );

  it("fails fast when the server is down", async () => {
    const down = await startSmtpSink();
    await down.stop();
    const channel = createEmailChannel({ smtpUrl: down.url, to: owners, from });
    const started = Date.now();
    await expect(channel.send(enquiry(), AbortSignal.timeout(10_000))).rejects.toThrow(/ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(3_000);
    channel.close();
  });

  it("gives up on a server that stalls when the outbox's signal aborts", async () => {
    sink.setMode("stall");
    const channel = createEmailChannel({ smtpUrl: sink.url, to: owners, from });
    const started = Date.now();
    await expect(channel.send(enquiry(), AbortSignal.timeout(700))).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(3_000);
    channel.close();
  });
});
