import { randomUUID } from "node:crypto";
import { customerMailMessageId, enquiryMessageId } from "~/text/message-ids";
import { time } from "~/store/rows.server";
import { transaction, type Params, type Row, type SqlClient, type Step } from "~/store/sql.server";
import { advisoryLock, insertEvent, lockEnquiry } from "~/store/statements.server";
import {
  acknowledgementLimits,
  customerMailKinds,
  type AcknowledgementQueued,
  type ClaimedOutgoingMail,
  type NewAcknowledgement,
  type CustomerMailKind,
  type OutgoingMail,
  type OutgoingMailState,
  type OutgoingMailStore,
} from "~/store/outgoing-mail.types";

/**
 * The mail the owner sends a customer (table `outgoing_mail`, schema v16): stored with its threading headers fixed,
 * claimed under a lease by one sender on any instance and settled only by its holder, as the login alerts are. Written
 * once over a SqlClient for SQLite and PostgreSQL.
 */

/** How long a claim on a mail holds: one held by a process that died is taken over after this. */
export const customerMailLeaseMs = 30_000;

const columns = `id, enquiry_id, event_id, kind, to_address, subject, body, message_id, in_reply_to, refs, created_at,
  state, attempts, window_start, next_attempt_at, last_error, sent_at`;

const textOrNull = (value: unknown) => (value === null || value === undefined ? null : String(value));
const timeOrNull = (value: unknown) => (value === null || value === undefined ? null : time(value));
const states: readonly OutgoingMailState[] = ["pending", "sent", "failed"];

const mailFrom = (row: Row): OutgoingMail => {
  const state = states.includes(row.state as OutgoingMailState) ? (row.state as OutgoingMailState) : "failed";
  return {
    id: String(row.id),
    enquiryId: String(row.enquiry_id),
    eventId: textOrNull(row.event_id),
    kind: customerMailKinds.includes(row.kind as CustomerMailKind) ? (row.kind as CustomerMailKind) : "reply",
    to: String(row.to_address),
    subject: String(row.subject),
    body: String(row.body),
    messageId: String(row.message_id),
    inReplyTo: textOrNull(row.in_reply_to),
    references: String(row.refs ?? "")
      .split(" ")
      .filter(Boolean),
    createdAt: time(row.created_at),
    state,
    attempts: Number(row.attempts),
    nextAttemptAt: state === "pending" ? timeOrNull(row.next_attempt_at) : null,
    lastError: textOrNull(row.last_error),
    sentAt: timeOrNull(row.sent_at),
  };
};

/** One mail to a customer, for `queueCustomerMail`. */
export interface CustomerMail {
  /** Made here when not given (the caller may need it first, for its timeline line's detail). */
  id?: string;
  enquiryId: string;
  kind: CustomerMailKind;
  subject: string;
  body: string;
  /** NOTIFY_EMAIL_FROM's address: the Message-IDs' domain. */
  fromAddress: string;
  /** The timeline line it belongs to. */
  eventId?: string | null;
  /** When it is stored (ms): due at once, retried for a day from then. */
  at: number;
}

/**
 * The statement that stores one mail to the enquiry's customer, to run inside the caller's transaction (a reply, a
 * build update): to the enquiry's address, with its own Message-ID, answering the enquiry's previous mail that is
 * queued or sent (else the enquiry's own notification), References the whole chain. Nothing when there is no such
 * enquiry; its rows (named `mail`) are the stored mail. Run it after `lockEnquiry` so that two mails stored at once on
 * PostgreSQL chain one after the other (the second waits for the first's commit and then reads it).
 */
export function queueCustomerMail(mail: CustomerMail): Step<"mail"> {
  const id = mail.id ?? randomUUID();
  const root = enquiryMessageId(mail.enquiryId, mail.fromAddress);
  return {
    name: "mail",
    // The previous mail is the tip of the chain: the one whose References is the longest (each mail's extends its
    // previous one's). Not the newest created_at: of two replies posted at once, the one whose clock reading came
    // first may be stored second.
    sql: `INSERT INTO outgoing_mail (id, enquiry_id, event_id, kind, to_address, subject, body, message_id, in_reply_to,
            refs, created_at, state, attempts, window_start, next_attempt_at)
          SELECT CAST(? AS TEXT), e.id, CAST(? AS TEXT), CAST(? AS TEXT), e.email, CAST(? AS TEXT), CAST(? AS TEXT),
            CAST(? AS TEXT), COALESCE(previous.message_id, CAST(? AS TEXT)),
            COALESCE(TRIM(previous.refs || ' ' || previous.message_id), CAST(? AS TEXT)),
            CAST(? AS BIGINT), 'pending', 0, CAST(? AS BIGINT), CAST(? AS BIGINT)
          FROM enquiries e LEFT JOIN (
            SELECT message_id, refs FROM outgoing_mail
            WHERE enquiry_id = ? AND state IN ('pending', 'sent')
            ORDER BY LENGTH(refs) DESC, created_at DESC LIMIT 1
          ) previous ON 1 = 1
          WHERE e.id = ?
          RETURNING ${columns}`,
    params: [
      id,
      mail.eventId ?? null,
      mail.kind,
      mail.subject,
      mail.body,
      customerMailMessageId(mail.kind, id, mail.fromAddress),
      root,
      root,
      mail.at,
      mail.at,
      mail.at,
      mail.enquiryId,
      mail.enquiryId,
    ],
  };
}

/**
 * New → Replied when the enquiry is still New (no stage set yet counts as New): the stage, its timeline line and the
 * activity entry, as setting the stage by hand writes them. Nothing when it is further on already.
 */
function repliedFromNew(enquiryId: string, actor: string, at: number): Step<never>[] {
  const stillNew = "(stage IS NULL OR stage = 'new')";
  return [
    {
      sql: `INSERT INTO activity (id, at, actor, action, enquiry_id, detail)
            SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), 'stage new -> replied', id, NULL
            FROM enquiries WHERE id = ? AND ${stillNew}`,
      params: [randomUUID(), at, actor, enquiryId],
    },
    {
      sql: `INSERT INTO enquiry_events (id, enquiry_id, at, kind, actor, body, detail)
            SELECT CAST(? AS TEXT), id, CAST(? AS BIGINT), 'stage', CAST(? AS TEXT), NULL, CAST(? AS TEXT)
            FROM enquiries WHERE id = ? AND ${stillNew}`,
      params: [randomUUID(), at, actor, JSON.stringify({ from: "new", to: "replied" }), enquiryId],
    },
    {
      sql: `UPDATE enquiries SET stage = 'replied', stage_at = ? WHERE id = ? AND ${stillNew}`,
      params: [at, enquiryId],
    },
  ];
}

/**
 * What decides whether an enquiry is acknowledged now, as SQL over the enquiry `e` (params in order: `limitParams`):
 * clean, no acknowledgement to its address in the last day, under the hourly number, e-mail not failing.
 */
const acknowledgementChecks = {
  clean: "(e.status <> 'spam' AND e.spam_verdict = 'none')",
  address: `NOT EXISTS (SELECT 1 FROM outgoing_mail a
              WHERE a.kind = 'acknowledgement' AND a.to_address = e.email_key AND a.created_at > ?)`,
  site: `(SELECT COUNT(*) FROM outgoing_mail h WHERE h.kind = 'acknowledgement' AND h.created_at > ?) < ?`,
  working: `NOT EXISTS (SELECT 1 FROM outgoing_mail f
              WHERE f.state = 'pending' AND f.attempts > 0 AND f.last_error IS NOT NULL AND f.created_at > ?)
            AND NOT EXISTS (SELECT 1 FROM notifications n
              WHERE n.state = 'pending' AND n.channel = 'email' AND n.attempts > 0 AND n.last_error IS NOT NULL
                AND n.window_start > ?)`,
};
const limitParams = (at: number) => ({
  address: [at - acknowledgementLimits.perAddressMs],
  site: [at - 60 * 60_000, acknowledgementLimits.perHour],
  working: [at - acknowledgementLimits.failingWindowMs, at - acknowledgementLimits.failingWindowMs],
});

/**
 * The acknowledgement of an enquiry, stored when the limits allow, with its timeline line (by the site), in one
 * transaction under one lock, so that of many enquiries stored at once on any instance exactly as many as the limits
 * allow get one. It answers nothing the customer sent by mail, so it is no thread's reply (no In-Reply-To); the
 * owner's first reply then answers it.
 */
function queueAcknowledgementSteps(db: SqlClient, ack: NewAcknowledgement, at: number): Step<"facts" | "mail">[] {
  const id = randomUUID();
  const eventId = randomUUID();
  const { clean, address, site, working } = acknowledgementChecks;
  const params = limitParams(at);
  return [
    ...advisoryLock(db, "acknowledgements"),
    {
      name: "facts",
      sql: `SELECT ${clean} AS clean, ${address} AS address, ${site} AS site, ${working} AS working
            FROM enquiries e WHERE e.id = ?`,
      params: [...params.address, ...params.site, ...params.working, ack.enquiryId],
    },
    {
      name: "mail",
      sql: `INSERT INTO outgoing_mail (id, enquiry_id, event_id, kind, to_address, subject, body, message_id,
              in_reply_to, refs, created_at, state, attempts, window_start, next_attempt_at)
            SELECT CAST(? AS TEXT), e.id, CAST(? AS TEXT), 'acknowledgement', e.email_key, CAST(? AS TEXT),
              CAST(? AS TEXT), CAST(? AS TEXT), NULL, '', CAST(? AS BIGINT), 'pending', 0, CAST(? AS BIGINT),
              CAST(? AS BIGINT)
            FROM enquiries e
            WHERE e.id = ? AND ${clean} AND ${address} AND ${site} AND ${working}
            RETURNING ${columns}`,
      params: [
        id,
        eventId,
        ack.subject,
        ack.body,
        customerMailMessageId("acknowledgement", id, ack.fromAddress),
        at,
        at,
        at,
        ack.enquiryId,
        ...params.address,
        ...params.site,
        ...params.working,
      ],
    },
    insertEvent(ack.enquiryId, { at, kind: "acknowledgement", actor: "site", detail: { mailId: id } }, eventId, {
      sql: "EXISTS (SELECT 1 FROM outgoing_mail WHERE id = ?)",
      params: [id],
    }),
  ];
}

/** Why the facts read under the lock kept an acknowledgement back (the first that holds). */
function skippedBecause(facts: Row | undefined): AcknowledgementQueued {
  const yes = (value: unknown) => value === true || Number(value) === 1;
  if (!facts || !yes(facts.clean)) return { queued: false, reason: "not-clean" };
  if (!yes(facts.address)) return { queued: false, reason: "address-limit" };
  if (!yes(facts.site)) return { queued: false, reason: "site-limit" };
  return { queued: false, reason: "failing" };
}

export function outgoingMailOperations(db: SqlClient): OutgoingMailStore {
  // PostgreSQL: a claim skips rows another instance is claiming (SQLite runs one write transaction at a time anyway).
  const skipLocked = db.dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : "";

  const settle = async (claim: ClaimedOutgoingMail, set: string, params: Params) => {
    const rows = await db.query(
      `UPDATE outgoing_mail SET ${set}, claim_token = NULL, claim_until = NULL
       WHERE id = ? AND claim_token = ? AND state = 'pending' RETURNING id`,
      [...params, claim.id, claim.claimToken],
    );
    return rows.length === 1;
  };

  return {
    async queueReply({ enquiryId, subject, body, actor, fromAddress }, now = new Date()) {
      const at = now.getTime();
      const mailId = randomUUID();
      const eventId = randomUUID();
      const { mail } = await transaction(db, [
        ...lockEnquiry(db, enquiryId),
        queueCustomerMail({ id: mailId, enquiryId, kind: "reply", subject, body, fromAddress, eventId, at }),
        insertEvent(enquiryId, { at, kind: "reply", actor, body, detail: { mailId, subject } }, eventId),
        ...repliedFromNew(enquiryId, actor, at),
        {
          sql: `UPDATE enquiries SET answered_at = ?, first_reply_at = COALESCE(first_reply_at, ?),
                  revision = revision + 1
                WHERE id = ?`,
          params: [at, at, enquiryId],
        },
      ]);
      return mail && mail.length === 1 ? mailFrom(mail[0]!) : null;
    },

    async queueAcknowledgement(ack, now = new Date()) {
      const { facts, mail } = await transaction(db, queueAcknowledgementSteps(db, ack, now.getTime()));
      return mail && mail.length === 1 ? { queued: true, mail: mailFrom(mail[0]!) } : skippedBecause(facts?.[0]);
    },

    async outgoingMailOf(enquiryId) {
      const rows = await db.query(
        `SELECT ${columns} FROM outgoing_mail WHERE enquiry_id = ? ORDER BY created_at, LENGTH(refs)`,
        [enquiryId],
      );
      return rows.map(mailFrom);
    },

    async claimOutgoingMail(limit, now = new Date()) {
      const at = now.getTime();
      const token = randomUUID();
      const due = "state = 'pending' AND next_attempt_at <= ? AND (claim_until IS NULL OR claim_until <= ?)";
      const { claimed, authors } = await transaction(db, [
        {
          // The conditions again outside the sub-select: of two instances claiming at once, the second finds the row
          // claimed when it gets to it (PostgreSQL re-checks them on a row another transaction changed).
          name: "claimed",
          sql: `UPDATE outgoing_mail SET claim_token = ?, claim_until = ?, attempts = attempts + 1
                WHERE ${due} AND id IN (
                  SELECT id FROM outgoing_mail WHERE ${due} ORDER BY next_attempt_at LIMIT ?${skipLocked})
                RETURNING ${columns}, claim_until`,
          params: [token, at + customerMailLeaseMs, at, at, at, at, limit],
        },
        {
          name: "authors",
          sql: `SELECT m.id, ev.actor FROM outgoing_mail m JOIN enquiry_events ev ON ev.id = m.event_id
                WHERE m.claim_token = ?`,
          params: [token],
        },
      ]);
      const authorOf = new Map((authors ?? []).map((row) => [String(row.id), String(row.actor)]));
      return (claimed ?? []).map((row) => ({
        ...mailFrom(row),
        author: authorOf.get(String(row.id)) ?? null,
        windowStart: time(row.window_start),
        claimToken: token,
        claimUntil: time(row.claim_until),
      }));
    },

    markOutgoingMailSent: (claim, now = new Date()) =>
      settle(claim, "state = 'sent', sent_at = ?, last_error = NULL", [now.getTime()]),
    markOutgoingMailRetry: (claim, error, nextAttemptAt) =>
      settle(claim, "next_attempt_at = ?, last_error = ?", [nextAttemptAt.getTime(), error.slice(0, 1000)]),
    markOutgoingMailFailed: (claim, error) => settle(claim, "state = 'failed', last_error = ?", [error.slice(0, 1000)]),

    async nextOutgoingMailAt() {
      const [row] = await db.query(
        `SELECT MIN(CASE WHEN claim_until IS NOT NULL AND claim_until > next_attempt_at THEN claim_until ELSE next_attempt_at END) AS due
         FROM outgoing_mail WHERE state = 'pending'`,
      );
      return row?.due === null || row?.due === undefined ? null : time(row.due);
    },
  };
}
