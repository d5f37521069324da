import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { log, withRequestId } from "~/log.server";

/**
 * Each request's id and its access line (ADR 0036). The id is the trusted proxy's `X-Request-Id` when there is one
 * (TRUST_PROXY > 0) and it looks like an id, else one made here; it is echoed on the response and rides the request's
 * async context, so every line the request causes carries it.
 */

/** What a request id may look like: a UUID, a proxy's hex or base64url id, `host:counter`… never free text. */
const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

/** The header's value when it is one sane id; undefined for none, several, or anything else. */
export function saneRequestId(header: string | string[] | undefined): string | undefined {
  return typeof header === "string" && requestIdPattern.test(header) ? header : undefined;
}

/** The id this request goes by: the trusted proxy's when it sent a sane one, else a new UUID. */
export function requestIdFor(header: string | string[] | undefined, trustProxy: number): string {
  // Without a trusted proxy the header is the client's own words: never believed, so no one picks the ids we log.
  return (trustProxy > 0 ? saneRequestId(header) : undefined) ?? randomUUID();
}

export function requestIds(trustProxy: number) {
  return (req: Request, res: Response, next: NextFunction) => {
    const reqId = requestIdFor(req.headers["x-request-id"], trustProxy);
    res.setHeader("X-Request-Id", reqId);
    res.locals.reqId = reqId;
    withRequestId(reqId, next);
  };
}

/**
 * One line per request when its answer ends (or the connection closes first): method, path, status, length, time.
 * The path without its query string: the owner's searches (/inbox?q=) hold visitors' names and addresses, and nothing
 * a log reader needs is in the query of any route.
 */
export function accessLog() {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const { method } = req;
    const path = req.originalUrl.split("?")[0];
    // Taken now: the response's events may fire outside the request's async context.
    const reqId = res.locals.reqId as string | undefined;
    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
      const status = res.headersSent ? res.statusCode : undefined;
      const length = res.getHeader("content-length");
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      log.info(`${method} ${path} ${status ?? "-"} ${length ?? "-"} - ${durationMs.toFixed(3)} ms`, {
        reqId,
        method,
        path,
        status,
        length: length === undefined ? undefined : Number(length),
        durationMs: Math.round(durationMs * 1000) / 1000,
      });
    };
    res.once("finish", done);
    res.once("close", done);
    next();
  };
}
