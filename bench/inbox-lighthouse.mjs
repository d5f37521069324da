// Lighthouse on the owner's inbox: /inbox/login, and /inbox logged in (the session cookie comes from a real login).
// Usage: node bench/inbox-lighthouse.mjs BASE_URL EMAIL   (the password on stdin; the server's PUBLIC_URL = BASE_URL)
import { text } from "node:stream/consumers";
import { lighthousePage } from "./lib/lighthouse.mjs";
import { ownerLogin } from "./lib/servers.mjs";

const [base, email] = process.argv.slice(2);
if (!base || !email) {
  console.error("usage: node bench/inbox-lighthouse.mjs BASE_URL EMAIL < password-file");
  process.exit(2);
}
const password = (await text(process.stdin)).split(/\r?\n/)[0];
const cookie = await ownerLogin(base, { email, password });

const chromePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
for (const [path, extraHeaders] of [
  ["/inbox/login", undefined],
  ["/inbox", { Cookie: cookie }],
]) {
  const result = await lighthousePage(`${base}${path}`, { chromePath, extraHeaders });
  console.log(
    path,
    JSON.stringify(result.scores),
    result.flagged.map((audit) => audit.id).join(", ") || "nothing flagged",
  );
  if (result.errors.length) console.log("  errors:", result.errors.join("; "));
}
