import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import { freePort } from "./free-port.mjs";

/**
 * A real HTTP server on 127.0.0.1 standing in for a chat service's incoming webhook. It records every POST it
 * accepts (answering 204), and can be made to answer another status, to redirect, or to stall (never answer); it can be
 * stopped and started again on the same port.
 */

export interface ReceivedPost {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
}

export type ReceiverMode = "accept" | { status: number } | { redirect: string } | "stall";

export interface WebhookReceiver {
  port: number;
  /** The webhook URL to configure (a secret-looking path, as Slack's and Discord's are). */
  url: string;
  /** Accepted posts only (mode "accept"). */
  posts: ReceivedPost[];
  /** Every request that arrived, accepted or not. */
  attempts(): number;
  /** Accepted posts about this enquiry id. */
  forEnquiry(id: string): ReceivedPost[];
  setMode(mode: ReceiverMode): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function startWebhookReceiver({ port: wantedPort }: { port?: number } = {}): Promise<WebhookReceiver> {
  const port = wantedPort ?? (await freePort());
  const posts: ReceivedPost[] = [];
  let mode: ReceiverMode = "accept";
  let attempts = 0;
  let server: Server | undefined;
  const stalled = new Set<ServerResponse>();

  const receiver: WebhookReceiver = {
    port,
    url: `http://127.0.0.1:${port}/hooks/T000/B000/secret-token`,
    posts,
    attempts: () => attempts,
    forEnquiry: (id) => posts.filter((p) => (p.json as { enquiry?: { id?: string } } | null)?.enquiry?.id === id),
    setMode(next) {
      mode = next;
    },
    async start() {
      if (server) return;
      const instance = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on("data", (chunk: Buffer) => chunks.push(chunk));
        request.on("end", () => {
          attempts += 1;
          if (mode === "stall") {
            stalled.add(response);
            return;
          }
          if (typeof mode === "object" && "status" in mode) {
            response.writeHead(mode.status, { "Content-Type": "text/plain" }).end("failing for the test\n");
            return;
          }
          if (typeof mode === "object") {
            response.writeHead(307, { Location: mode.redirect }).end();
            return;
          }
          const body = Buffer.concat(chunks).toString("utf8");
          let json: unknown = null;
          try {
            json = JSON.parse(body);
          } catch {
            // recorded as it came; the test looks at it
          }
          posts.push({ path: request.url ?? "", headers: request.headers, body, json });
          // Slack answers 200 "ok", Discord 204: either is a delivery.
          response.writeHead(204).end();
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
