import { randomUUID } from "node:crypto";
import type { Enquiry } from "../../app/enquiry/fields";
import type { NewEnquiry, StoredEnquiry } from "../../app/store/records";

/**
 * The tests' one enquiry: the four fields a visitor posts, valid, with `token` in the e-mail address and the message,
 * so each test finds its own enquiry upstream, in the inbox, in an e-mail or in the page shown again. A test that
 * needs other words says so in `overrides`.
 */
export function enquiry(token: string = randomUUID(), overrides: Partial<Enquiry> = {}): Enquiry {
  return {
    name: "Test Visitor",
    email: `visitor-${token}@example.com`,
    message: `Please quote a prop. ${token}`,
    security: "Freddy",
    ...overrides,
  };
}

/**
 * Enquiry number `n` as the store takes it (no captcha answer): the store tests list them in order by name
 * ("Visitor 1", "Visitor 2", ...) and erase them by address.
 */
export function numberedEnquiry(n: number): NewEnquiry {
  return { name: `Visitor ${n}`, email: `visitor${n}@example.com`, message: `I need a prop, number ${n}.` };
}

/**
 * An enquiry as the store keeps it and the notification channels receive it: fixed words and time (the channel tests
 * compare whole texts), a fresh id each time.
 */
export function storedEnquiry(
  message = "A talking skull for the queue line, please.",
  overrides: Partial<StoredEnquiry> = {},
): StoredEnquiry {
  return {
    id: `e-${randomUUID()}`,
    receivedAt: new Date("2026-10-01T18:30:05.123Z"),
    name: "Ann Visitor",
    email: "ann@visitor.example",
    message,
    status: "new",
    spamVerdict: "none",
    spamScore: 0,
    spamReasons: [],
    spamDecision: null,
    ...overrides,
  };
}
