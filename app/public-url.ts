/**
 * A page's canonical address: PUBLIC_URL (the root loader passes it down) and the route's own path, never the Host or
 * the path spelling a request came with. Used by the routes' meta for the canonical link and og:url.
 */
export function canonicalUrl(
  { matches }: { matches: ReadonlyArray<{ id: string; data?: unknown } | undefined> },
  path: string,
): string | undefined {
  const root = matches.find((match) => match?.id === "root")?.data;
  const publicUrl = typeof root === "object" && root !== null && "publicUrl" in root ? root.publicUrl : undefined;
  return typeof publicUrl === "string" ? new URL(path, publicUrl).href : undefined;
}
