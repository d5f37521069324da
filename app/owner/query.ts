import { type Folder, folders } from "~/store/enquiries.types";

/** The inbox list's place, all in the URL: folder, search, page (so it can be bookmarked, shared, reloaded). */
export const pageSize = 50;

export interface ListPlace {
  folder: Folder;
  search: string;
  page: number;
}

export function readPlace(url: URL): ListPlace {
  const folder = url.searchParams.get("folder");
  const page = Number.parseInt(url.searchParams.get("page") ?? "1", 10);
  return {
    folder: (folders as readonly string[]).includes(folder ?? "") ? (folder as Folder) : "new",
    search: (url.searchParams.get("q") ?? "").trim().slice(0, 200),
    page: Number.isSafeInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
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
