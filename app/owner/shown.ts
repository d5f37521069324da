import { onOwnerPage } from "~/text/safety";

/**
 * An owner page's loader data with every string in it passed through `onOwnerPage`: each /inbox loader returns
 * `data(shownToOwner({...}))`, so whatever a visitor wrote (and a field added later) reaches the text, the attributes
 * and the hydration data only as visible characters. Dates stay dates.
 */
export function shownToOwner<T>(value: T): T {
  if (typeof value === "string") return onOwnerPage(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => shownToOwner(item)) as T;
  if (value instanceof Date || value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shownToOwner(item)])) as T;
}
