import { describe, expect, it } from "vitest";
import { formatAmount, parseAmount, plainAmount } from "~/owner/money";

describe("amounts", () => {
  it("reads what an owner types into minor units of the currency", () => {
    expect(parseAmount("1500", "USD")).toBe(150_000);
    expect(parseAmount("1,500.5", "USD")).toBe(150_050);
    expect(parseAmount(" $1 500.55 ", "USD")).toBe(150_055);
    expect(parseAmount("€40", "EUR")).toBe(4_000);
    expect(parseAmount("1500", "JPY")).toBe(1500);
    expect(parseAmount("", "USD")).toBeNull();
  });

  it("refuses what is not an amount", () => {
    for (const bad of ["abc", "-5", "1.234", "1e5", "12.3.4", "999999999999"])
      expect(parseAmount(bad, "USD"), bad).toBe("invalid");
    expect(parseAmount("1500.5", "JPY")).toBe("invalid");
  });

  it("writes amounts back for the page and for forms and files", () => {
    expect(formatAmount(150_050, "USD")).toBe("$1,500.50");
    expect(formatAmount(4_000, "EUR")).toBe("€40.00");
    expect(plainAmount(150_050, "USD")).toBe("1500.50");
    expect(plainAmount(1500, "JPY")).toBe("1500");
  });
});
