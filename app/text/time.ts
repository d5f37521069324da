/**
 * A moment as every page of the owner area writes it, in UTC, the same on the server and in the browser (so the
 * hydrated page reads exactly like the served one). Here rather than beside the inbox's other formats because the site
 * editor and the inbox both show it.
 */
const absolute = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

export const absoluteTime = (at: Date) => `${absolute.format(at)} UTC`;
