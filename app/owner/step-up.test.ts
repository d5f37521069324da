import { describe, expect, it } from "vitest";
import { stepUpReason, stepUpReturn } from "~/owner/step-up";

describe("stepUpReason", () => {
  it("names what sent the owner to the code page from where it goes back to", () => {
    expect(stepUpReason(stepUpReturn.erase("0190a-b"))).toBe("erase");
    expect(stepUpReason(stepUpReturn.publish)).toBe("publish");
    expect(stepUpReason(stepUpReturn.restore)).toBe("restore");
    expect(stepUpReason(stepUpReturn.export("?folder=handled&q=bats"))).toBe("export");
    expect(stepUpReason(stepUpReturn.export(""))).toBe("export");
    expect(stepUpReason(stepUpReturn.security)).toBe("security");
    expect(stepUpReason(stepUpReturn.figures("2026"))).toBe("figures");
    expect(stepUpReturn.figures("2026")).toBe("/inbox/figures?year=2026");
    expect(stepUpReason(stepUpReturn.waitlistExport)).toBe("waitlist-export");
    expect(stepUpReason(stepUpReturn.waitlistErase("0190a-b"))).toBe("waitlist-erase");
    expect(stepUpReturn.waitlistErase("0190a-b", "?state=confirmed&page=3")).toBe(
      "/inbox/waitlist/0190a-b/erase?state=confirmed&page=3",
    );
    expect(stepUpReason(stepUpReturn.waitlistErase("0190a-b", "?page=3"))).toBe("waitlist-erase");
    expect(stepUpReason(stepUpReturn.announce)).toBe("announce");
    // Anything but a year is not carried into the address.
    expect(stepUpReturn.figures("2026&x=1")).toBe("/inbox/figures");
    expect(stepUpReturn.figures(null)).toBe("/inbox/figures");
  });

  it("names nothing for other pages", () => {
    expect(stepUpReason("/inbox/0190a-b")).toBeNull();
    expect(stepUpReason("/inbox/site/photos")).toBeNull();
    expect(stepUpReason("/about?preview")).toBeNull();
  });
});
