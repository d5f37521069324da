/**
 * The one spelling of a path the site serves: lower case, no empty segments, no dot segments, no trailing slash
 * (except the root), and no percent-escape of a character that needs none (`%61` is `a`). Any other spelling of a
 * page is redirected here, so a page is served and cached under one address only.
 */
export function canonicalPath(path: string): string {
  // Escapes of unreserved characters decoded (RFC 3986, 6.2.2.2); the others kept, with upper-case hex digits.
  const decoded = path.toLowerCase().replace(/%([0-9a-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return /[a-z0-9\-._~]/i.test(char) ? char.toLowerCase() : escape.toUpperCase();
  });
  const segments: string[] = [];
  for (const segment of decoded.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join("/")}`;
}
