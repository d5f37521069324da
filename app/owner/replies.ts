import type { OutgoingMail } from "~/store/outgoing-mail.types";

/**
 * What the enquiry page's Replies part is given (app/owner/replies.server.ts makes it), for its components
 * (app/components/inbox/replies/).
 */

/** One mail to the customer as the page lists it (times as ISO strings). */
export interface ShownMail {
  id: string;
  kind: OutgoingMail["kind"];
  subject: string;
  body: string;
  state: OutgoingMail["state"];
  attempts: number;
  createdAt: string;
  nextAttemptAt: string | null;
  sentAt: string | null;
  lastError: string | null;
}

export interface ReplyPanelData {
  /** Whether this server sends e-mail (SMTP_URL and the rest are set). */
  canSend: boolean;
  to: string;
  /** What the Subject field starts with. */
  subject: string;
  /** The reply as a mailto: link, for when the site cannot send it itself. */
  mailto: string;
  mails: ShownMail[];
  /** The server's clock when the page was made ("in 3 minutes"). */
  now: string;
}

/** What a refused reply gives back: the typed text and why, field by field. */
export interface ReplyRefusal {
  subject: string;
  message: string;
  problems: { field: "reply-subject" | "reply-message" | null; text: string }[];
}
