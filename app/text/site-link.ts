/** An address on the site for a mail or a message: PUBLIC_URL (with or without its trailing slash) and a path. */
export const siteLink = (publicUrl: string, path: string) => `${publicUrl.replace(/\/+$/, "")}${path}`;
