import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSiteContent, type SiteContent } from "~/site-content/schema.server";
import { enquiry } from "../support/enquiry";
import { getPage, publishSite } from "../support/site-page";
import { startSite, waitFor, type SiteServer } from "../support/site-server";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";

/**
 * The notification e-mail names the business as the site publishes it: after a publish of a new name and phone, the
 * next enquiry's e-mail (the built server, a real SMTP server) comes from "<name> website", says the name in its
 * words, and ends with a signature of the business's details that are set and the site's address (PUBLIC_URL).
 */

let sink: SmtpSink;
let site: SiteServer;
beforeAll(async () => {
  sink = await startSmtpSink();
  site = await startSite({
    API_HOST: "",
    PUBLIC_URL: "https://hollowhill.example",
    SMTP_URL: sink.url,
    NOTIFY_EMAIL_TO: "owner@hollowhill.example",
    NOTIFY_EMAIL_FROM: "site@hollowhill.example",
  });
}, 60_000);
afterAll(async () => {
  await site?.stop();
  await sink?.stop();
});

async function mailFor(values: ReturnType<typeof enquiry>) {
  const response = await fetch(`${site.url}/api/site/save-contact`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(values),
  });
  expect(response.status).toBe(204);
  const [stored] = (await site.stored()).filter((item) => item.email === values.email);
  await waitFor(() => sink.forEnquiry(stored!.id).length > 0, "the enquiry's e-mail", 15_000);
  return sink.forEnquiry(stored!.id)[0]!;
}

describe("the notification e-mail and the published business", () => {
  it("signs with the defaults before anything is published", async () => {
    const mail = await mailFor(enquiry(randomUUID()));
    expect(mail.headers.get("from")?.[0]).toBe("Grimforge Haunt Props website <site@hollowhill.example>");
    expect(mail.text).toContain("A new enquiry arrived through the Grimforge Haunt Props website.");
    expect(mail.text.endsWith("\n-- \nGrimforge Haunt Props\nhttps://hollowhill.example\n")).toBe(true);
  });

  it("after a publish of a new name and phone: the From name, the words and the signature say them", async () => {
    const content: SiteContent = {
      ...defaultSiteContent,
      business: {
        ...defaultSiteContent.business,
        name: "Hollow Hill Haunts",
        phone: "+1 (555) 013-1031",
        region: "Salem, Massachusetts",
      },
    };
    await publishSite(site.databaseUrl, content);
    // The server's poll has read the version once its pages show it; the outbox reads the same copy.
    await waitFor(
      async () => (await getPage(site.url)).html.includes("Hollow Hill Haunts"),
      "the new name on /",
      5_000,
    );

    const mail = await mailFor(enquiry(randomUUID()));
    expect(mail.headers.get("from")?.[0]).toBe("Hollow Hill Haunts website <site@hollowhill.example>");
    expect(mail.text).toContain("A new enquiry arrived through the Hollow Hill Haunts website.");
    expect(mail.text).not.toContain("Grimforge");
    // Only the details that are set: no public e-mail was given.
    expect(
      mail.text.endsWith(
        "\n-- \nHollow Hill Haunts\n+1 (555) 013-1031\nSalem, Massachusetts\nhttps://hollowhill.example\n",
      ),
    ).toBe(true);
  });
});
