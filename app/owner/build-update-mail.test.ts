import { describe, expect, it } from "vitest";
import { buildPageUrl, composeBuildUpdateMail } from "~/owner/build-update-mail";

describe("the customer's e-mail about a build update", () => {
  const url = buildPageUrl("https://haunt.example/", "abc_DEF-123");

  it("has the subject and the build page's link", () => {
    const mail = composeBuildUpdateMail({
      customerName: "Morticia",
      businessName: "Haunt Props",
      buildPageUrl: url,
      body: "The skeleton has its arms.",
    });
    expect(url).toBe("https://haunt.example/build/abc_DEF-123");
    expect(mail.subject).toBe("New photos of your build");
    expect(mail.text).toContain("Hello Morticia,");
    expect(mail.text).toContain("The skeleton has its arms.");
    expect(mail.text).toContain(`\n${url}\n`);
  });

  it("keeps a name on one line and a long update short", () => {
    const mail = composeBuildUpdateMail({
      customerName: "Evil\r\nBcc: x@example.com",
      businessName: "Haunt Props",
      buildPageUrl: url,
      body: "x".repeat(2000),
    });
    expect(mail.text).toContain("Hello Evil Bcc: x@example.com,");
    expect(mail.text).not.toContain("x".repeat(601));
    expect(mail.text).toContain("…");
  });
});
