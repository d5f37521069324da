/**
 * Step-up's words on the code page: which of the things that cannot be undone sent the owner there, read from where
 * the code page goes back to (`next`), so the page can say what happens after the code (app/owner/gate.server.ts
 * requireRecentFactor builds the address; the pages below choose `next`).
 */
export type StepUpReason =
  | "erase"
  | "publish"
  | "restore"
  | "export"
  | "figures"
  | "security"
  | "build-page"
  | "waitlist-export"
  | "waitlist-erase"
  | "announce";

/** Where each step-up sends the owner back to, once the code is accepted. */
export const stepUpReturn = {
  /** The erase page, to press Erase again. */
  erase: (enquiryId: string) => `/inbox/${encodeURIComponent(enquiryId)}/erase`,
  /** The Site page, with the draft saved before the code page (and it says so). */
  publish: "/inbox/site?done=saved",
  restore: "/inbox/site/history",
  /** Adding or removing a passkey or one-time codes, new recovery codes. */
  security: "/inbox/security",
  /** The list the export was asked from (its folder and search): the owner presses Download CSV again there. */
  export: (placeQuery: string) => `/inbox${placeQuery}`,
  /** The Figures page of the year whose CSV was asked for: Download CSV is pressed again there. */
  figures: (year: string | null) =>
    year !== null && /^\d{4}$/.test(year) ? `/inbox/figures?year=${year}` : "/inbox/figures",
  /** The enquiry page's build page section: the owner presses Share build page (or Revoke) again. */
  buildPage: (enquiryId: string) => `/inbox/${encodeURIComponent(enquiryId)}?build=again#build-page`,
  /** The Waitlist page: the owner presses Download CSV again there. */
  waitlistExport: "/inbox/waitlist",
  /** The waitlist address's erase page, to press Erase it again (with the list's page it came from). */
  waitlistErase: (entryId: string, placeQuery = "") =>
    `/inbox/waitlist/${encodeURIComponent(entryId)}/erase${placeQuery}`,
  /** The announcement's form, prefilled again (nothing was sent): Send announcement is pressed again. */
  announce: "/inbox/waitlist?announce=1#announce",
} as const;

export function stepUpReason(next: string): StepUpReason | null {
  const path = next.split(/[?#]/)[0] ?? "";
  if (/^\/inbox\/waitlist\/[^/]+\/erase$/.test(path)) return "waitlist-erase";
  if (path === "/inbox/waitlist") return /[?&]announce=1(?:&|#|$)/.test(next) ? "announce" : "waitlist-export";
  if (/^\/inbox\/[^/]+\/erase$/.test(path)) return "erase";
  if (path === "/inbox/site") return "publish";
  if (path === "/inbox/site/history") return "restore";
  if (path === "/inbox" || path === "/inbox/") return "export";
  if (path === "/inbox/figures") return "figures";
  // Adding or removing a factor, new recovery codes (the Security page).
  if (path === "/inbox/security") return "security";
  if (/^\/inbox\/[^/]+$/.test(path) && /[?&]build=again(?:&|#|$)/.test(next)) return "build-page";
  return null;
}
