import { type Folder, folders } from "~/store/enquiries.types";
import type { WaitlistState } from "~/store/waitlist.types";

/** The inbox list's place, all in the URL: folder, search, page (so it can be bookmarked, shared, reloaded). */
export const pageSize = 50;

export interface ListPlace {
  folder: Folder;
  search: string;
  page: number;
}

/** `?page=`: a whole number from 1 to 100,000; anything else is the first page. */
function readPage(url: URL): number {
  const page = Number.parseInt(url.searchParams.get("page") ?? "1", 10);
  return Number.isSafeInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

export function readPlace(url: URL): ListPlace {
  const folder = url.searchParams.get("folder");
  return {
    folder: (folders as readonly string[]).includes(folder ?? "") ? (folder as Folder) : "new",
    search: (url.searchParams.get("q") ?? "").trim().slice(0, 200),
    page: readPage(url),
  };
}

/** The query string of a place (only what differs from the defaults). */
export function placeQuery({ folder, search, page }: Partial<ListPlace>): string {
  const params = new URLSearchParams();
  if (folder && folder !== "new") params.set("folder", folder);
  if (search) params.set("q", search);
  if (page && page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** The Waitlist page's place, paged like the inbox: one state or all of them, and the page. */
export const waitlistPageSize = 100;
export const waitlistStates = ["pending", "confirmed", "unsubscribed"] as const satisfies readonly WaitlistState[];

export interface WaitlistPlace {
  state: WaitlistState | "all";
  page: number;
}

export function readWaitlistPlace(url: URL): WaitlistPlace {
  const state = url.searchParams.get("state") ?? "";
  return {
    state: (waitlistStates as readonly string[]).includes(state) ? (state as WaitlistState) : "all",
    page: readPage(url),
  };
}

/** The query string of a Waitlist place (only what differs from the defaults), `extra` after it (`erased=1`). */
export function waitlistPlaceQuery(
  { state, page }: Partial<WaitlistPlace>,
  extra: Record<string, string> = {},
): string {
  const params = new URLSearchParams();
  if (state && state !== "all") params.set("state", state);
  if (page && page > 1) params.set("page", String(page));
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** How many pages `total` addresses fill (at least one, the empty list's). */
export const waitlistPages = (total: number) => Math.max(1, Math.ceil(total / waitlistPageSize));
