import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import { freePort } from "./free-port.mjs";

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package from the nodemailer project) that records every
 * message it accepts. It can be stopped and started again on the same port (a mail server that is down and comes
 * back), made to refuse messages with a 4xx or 5xx reply, or to stall after the message data.
 */

export interface ReceivedMail {
  /** The SMTP envelope: who the client said the message is from and to whom it is delivered. */
  envelope: { from: string; to: string[] };
  /** The message as it arrived, headers and body. */
  raw: string;
  /** Header name (lower case) -> each value, unfolded, with RFC 2047 encoded words decoded. */
  headers: Map<string, string[]>;
  /** The plain-text body, its transfer encoding undone. */
  text: string;
  /** The user the client logged in as, if it did. */
  user: string | undefined;
}

export type SinkMode = "accept" | { reject: number } | "stall";

export interface SmtpSink {
  port: number;
  url: string;
  messages: ReceivedMail[];
  /** Messages whose X-Enquiry-Id header is this id. */
  forEnquiry(id: string): ReceivedMail[];
  setMode(mode: SinkMode): void;
  /** Each message is answered this long after its data arrived (accepted all the same): a slow server. */
  setDelay(ms: number): void;
  /** Connections opened so far (each send opens one): shows that a client tried while the sink was refusing. */
  connections(): number;
  /** The commands (first word of each line) that reached the server in clear text, e.g. EHLO, STARTTLS, AUTH. */
  plainCommands(): string[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

function decodeEncodedWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, encoding: string, text: string) => {
      const bytes =
        encoding.toUpperCase() === "B"
          ? Buffer.from(text, "base64")
          : Buffer.from(
              text
                .replace(/_/g, " ")
                .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
              "latin1",
            );
      return new TextDecoder(charset).decode(bytes);
    });
}

function decodeQuotedPrintable(body: string): string {
  const binary = body
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return new TextDecoder().decode(Buffer.from(binary, "latin1"));
}

/** Headers and the text body of a single-part message, as nodemailer writes a text-only e-mail. */
export function parseMail(raw: string): { headers: Map<string, string[]>; text: string } {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const headers = new Map<string, string[]>();
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), decodeEncodedWords(line.slice(colon + 1).trim())]);
  }
  const encoding = headers.get("content-transfer-encoding")?.[0]?.toLowerCase();
  let text = body;
  if (encoding === "quoted-printable") text = decodeQuotedPrintable(body);
  else if (encoding === "base64") text = Buffer.from(body, "base64").toString("utf8");
  return { headers, text: text.replace(/\r\n/g, "\n") };
}

export async function startSmtpSink({
  port: wantedPort,
  auth,
  starttls = false,
  tls,
}: {
  port?: number;
  auth?: { user: string; pass: string };
  /**
   * Offer STARTTLS, with smtp-server's own self-signed certificate (which a client must not trust), or with `tls`.
   * Without it, STARTTLS is neither announced (hideSTARTTLS) nor accepted.
   */
  starttls?: boolean;
  tls?: { key: string; cert: string };
} = {}): Promise<SmtpSink> {
  const port = wantedPort ?? (await freePort());
  const messages: ReceivedMail[] = [];
  let mode: SinkMode = "accept";
  let server: SMTPServer | undefined;
  let connectionCount = 0;
  let delayMs = 0;
  const commands: string[] = [];
  const stalled = new Set<() => void>();

  const address = (a: SMTPServerAddress | false) => (a ? a.address : "");

  function onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (error?: Error | null) => void) {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
    const answer = () => {
      if (mode === "stall") {
        // Never answer: the client must give up on its own.
        stalled.add(() => callback(Object.assign(new Error("stalled"), { responseCode: 421 })));
        return;
      }
      if (typeof mode === "object") {
        callback(Object.assign(new Error(`refused for the test (${mode.reject})`), { responseCode: mode.reject }));
        return;
      }
      const raw = Buffer.concat(chunks).toString("utf8");
      messages.push({
        envelope: { from: address(session.envelope.mailFrom), to: session.envelope.rcptTo.map((r) => r.address) },
        raw,
        ...parseMail(raw),
        user: typeof session.user === "string" ? session.user : undefined,
      });
      callback();
    };
  }

  const sink: SmtpSink = {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    forEnquiry: (id) => messages.filter((m) => m.headers.get("x-enquiry-id")?.[0] === id),
    setMode(next) {
      mode = next;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    connections: () => connectionCount,
    plainCommands: () => [...commands],
    async start() {
      if (server) return;
      const instance = new SMTPServer({
        // Plain SMTP on loopback unless the test asks for STARTTLS; AUTH only when the test asks for it.
        disabledCommands: [...(starttls ? [] : ["STARTTLS"]), ...(auth ? [] : ["AUTH"])],
        hideSTARTTLS: !starttls,
        ...(tls ?? {}),
        allowInsecureAuth: true,
        authOptional: !auth,
        logger: false,
        closeTimeout: 200,
        onConnect(_session, callback) {
          connectionCount += 1;
          callback();
        },
        onAuth(credentials, _session, callback) {
          if (auth && credentials.username === auth.user && credentials.password === auth.pass) {
            callback(null, { user: credentials.username });
          } else {
            callback(new Error("invalid credentials"));
          }
        },
        onData,
      });
      instance.on("error", () => {});
      // What the client says before any TLS: once a connection is upgraded its bytes are no longer text commands.
      instance.server.on("connection", (socket) => {
        let plain = true;
        socket.on("data", (chunk: Buffer) => {
          if (!plain) return;
          for (const line of chunk.toString("latin1").split("\r\n")) {
            const word = /^[A-Za-z]+/.exec(line)?.[0]?.toUpperCase();
            if (word) commands.push(word);
            if (word === "STARTTLS") plain = false;
          }
        });
      });
      await new Promise<void>((resolve, reject) => {
        instance.server.once("error", reject);
        instance.listen(port, "127.0.0.1", () => resolve());
      });
      server = instance;
    },
    async stop() {
      const instance = server;
      server = undefined;
      for (const release of stalled) release();
      stalled.clear();
      if (!instance) return;
      await new Promise<void>((resolve) => instance.close(() => resolve()));
    },
  };
  await sink.start();
  return sink;
}
