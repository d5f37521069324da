import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import { freePort } from "./free-port.mjs";

/**
 * A real HTTP server on 127.0.0.1 standing in for a chat service's incoming webhook. It records every POST it
 * accepts (answering 204, or what the test asks), and can be made to answer like each service does when it refuses
 * (a status with the service's own body and headers: 400 with Slack's `invalid_payload`, Discord's 429 JSON with
 * `retry_after`, a Retry-After header), to redirect, to answer slowly, or to stall (never answer); the answer can
 * also be chosen per request (from how many are in flight). It can be stopped and started again on the same port.
 */

export interface ReceivedPost {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
}

export type Answer =
  "accept" | "stall" | { status: number; body?: string; headers?: Record<string, string> } | { redirect: string };

/** Per request: how many requests are in flight (this one included), how many came before it, and its body. */
export type ReceiverMode = Answer | ((request: { inFlight: number; index: number; body: string }) => Answer);

export interface WebhookReceiver {
  port: number;
  /** The webhook URL to configure (a secret-looking path, as Slack's and Discord's are). */
  url: string;
  /** Accepted posts only. */
  posts: ReceivedPost[];
  /** Every request that arrived, accepted or not. */
  attempts(): number;
  /** Requests answered with something other than 2xx. */
  refused(): number;
  /** The most requests that were in flight at once. */
  peakInFlight(): number;
  /** Accepted posts about this enquiry id (in the json format's `enquiry`, or anywhere in the body). */
  forEnquiry(id: string): ReceivedPost[];
  setMode(mode: ReceiverMode): void;
  /** Every answer (accepting too) waits this long first: a slow service. */
  setDelay(ms: number): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function startWebhookReceiver({ port: wantedPort }: { port?: number } = {}): Promise<WebhookReceiver> {
  const port = wantedPort ?? (await freePort());
  const posts: ReceivedPost[] = [];
  let mode: ReceiverMode = "accept";
  let delayMs = 0;
  let attempts = 0;
  let refused = 0;
  let inFlight = 0;
  let peak = 0;
  let server: Server | undefined;
  const stalled = new Set<ServerResponse>();

  const receiver: WebhookReceiver = {
    port,
    url: `http://127.0.0.1:${port}/hooks/T000/B000/secret-token`,
    posts,
    attempts: () => attempts,
    refused: () => refused,
    peakInFlight: () => peak,
    forEnquiry: (id) =>
      posts.filter(
        (p) => (p.json as { enquiry?: { id?: string } } | null)?.enquiry?.id === id || p.body.includes(`"${id}"`),
      ),
    setMode(next) {
      mode = next;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    async start() {
      if (server) return;
      const instance = createServer((request, response) => {
        const chunks: Buffer[] = [];
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        const index = attempts;
        attempts += 1;
        let done = false;
        const finish = () => {
          if (!done) inFlight -= 1;
          done = true;
        };
        response.on("finish", finish);
        response.on("close", finish);
        request.on("data", (chunk: Buffer) => chunks.push(chunk));
        request.on("end", () => {
          const received = Buffer.concat(chunks).toString("utf8");
          const answer = typeof mode === "function" ? mode({ inFlight, index, body: received }) : mode;
          const reply = () => {
            if (answer === "stall") {
              stalled.add(response);
              return;
            }
            if (typeof answer === "object" && "status" in answer) {
              if (answer.status < 200 || answer.status > 299) refused += 1;
              response
                .writeHead(answer.status, { "Content-Type": "text/plain", ...answer.headers })
                .end(answer.body ?? "failing for the test\n");
              if (answer.status < 200 || answer.status > 299) return;
            } else if (typeof answer === "object") {
              refused += 1;
              response.writeHead(307, { Location: answer.redirect }).end();
              return;
            }
            const body = received;
            let json: unknown = null;
            try {
              json = JSON.parse(body);
            } catch {
              // recorded as it came; the test looks at it
            }
            posts.push({ path: request.url ?? "", headers: request.headers, body, json });
            // Slack answers 200 "ok", Discord 204: either is a delivery.
            if (answer === "accept") response.writeHead(204).end();
          };
          if (delayMs > 0) setTimeout(reply, delayMs);
          else reply();
        });
      });
      await new Promise<void>((resolve, reject) => {
        instance.once("error", reject);
        instance.listen(port, "127.0.0.1", () => resolve());
      });
      server = instance;
    },
    async stop() {
      const instance = server;
      server = undefined;
      for (const response of stalled) response.destroy();
      stalled.clear();
      if (!instance) return;
      await new Promise<void>((resolve) => {
        instance.close(() => resolve());
        instance.closeAllConnections();
      });
    },
  };
  await receiver.start();
  return receiver;
}
