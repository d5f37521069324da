import type { StoredEnquiry } from "~/store/types";

/** A stored enquiry as the notification channels receive it (a fresh id each time). */
export function storedEnquiry(message: string, overrides: Partial<StoredEnquiry> = {}): StoredEnquiry {
  return {
    id: `e-${Math.random().toString(36).slice(2)}`,
    receivedAt: new Date("2026-10-01T18:30:05.123Z"),
    name: "Ann Visitor",
    email: "ann@visitor.example",
    message,
    status: "new",
    spamReasons: [],
    ...overrides,
  };
}
