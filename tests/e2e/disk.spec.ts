import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { enquiryMessages } from "../../app/wording";
import { startSite } from "../support/site-server";
import { expect, test } from "./fixtures";
import { expectValues, fill, send, status } from "./form";
import { enquiry } from "../support/enquiry";
import { e2ePortBase } from "./servers";

/**
 * The data directory removed under the running server, JavaScript on and off: the visitor is told the enquiry could
 * not be confirmed (never thanked for a row that is not on disk) and keeps what they typed; once a database file is
 * back at the path the same words go through, without a restart. Each project has its own server (its own port in
 * the E2E block) so that one project's removal never meets the other's test.
 */

const base = e2ePortBase;

test("data directory removed: could not confirm, the words kept, then sent once the file is back", async ({
  page,
  open,
  jsEnabled,
}) => {
  test.setTimeout(60_000);
  const root = mkdtempSync(join(tmpdir(), "haunt-e2e-disk-"));
  const dataDir = join(root, "data");
  const site = await startSite({
    API_HOST: "",
    DATABASE_URL: `file:${join(dataDir, "enquiries.db")}`,
    PORT: String(base + (jsEnabled ? 20 : 21)),
  });
  try {
    const values = enquiry();
    await open(`${site.url}/contact`);
    await fill(page, values);
    rmSync(dataDir, { recursive: true, force: true });
    await send(page);
    await expect(status(page)).toHaveText(/^Error: Server: We could not confirm/);
    await expectValues(page, values);

    mkdirSync(dataDir);
    writeFileSync(join(dataDir, "enquiries.db"), "");
    await expect(async () => {
      const ready = await fetch(`${site.url}/readyz`);
      expect(ready.status).toBe(200);
    }).toPass({ timeout: 10_000 });
    await send(page);
    await expect(status(page)).toHaveText(enquiryMessages.success);
    expect((await site.stored()).map((row) => row.message)).toEqual([values.message]);
  } finally {
    await site.stop();
    rmSync(root, { recursive: true, force: true });
  }
});
