/**
 * A page's canonical address: PUBLIC_URL (the root loader passes it down) and the page's path, never the Host a
 * request came with. Used by the routes' meta for the canonical link and og:url.
 */
export function canonicalUrl({
  matches,
  location,
}: {
  matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>;
  location: { pathname: string };
}): string | undefined {
  const root = matches.find((match) => match?.id === "root")?.data;
  const publicUrl = typeof root === "object" && root !== null && "publicUrl" in root ? root.publicUrl : undefined;
  return typeof publicUrl === "string" ? new URL(location.pathname, publicUrl).href : undefined;
}
