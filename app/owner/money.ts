/**
 * Amounts the owner types and reads (a quote, a deposit), kept as whole minor units (cents) of the business's currency
 * so sums are exact. How many decimals a currency has comes from Intl (JPY 0, USD 2, KWD 3).
 */

const digitsOf = (currency: string): number => {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
};

/** The largest amount taken: far above any prop, well inside a safe integer in minor units. */
export const maxAmount = 100_000_000;

/**
 * "1,500", "1500.5", "$1 500.50" → minor units; null for an empty field; "invalid" for anything else (letters, more
 * decimals than the currency has, a negative amount, more than maxAmount).
 */
export function parseAmount(text: string, currency: string): number | null | "invalid" {
  // A currency sign in front is allowed; a minus is not (it would be stripped with the sign).
  if (text.includes("-")) return "invalid";
  const cleaned = text.replace(/[\s,]/g, "").replace(/^[^\d.]{1,4}/, "");
  if (text.trim() === "") return null;
  const digits = digitsOf(currency);
  const match = /^(\d{1,12})(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return "invalid";
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return "invalid";
  const whole = Number(match[1]);
  if (whole > maxAmount) return "invalid";
  return whole * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
}

/** For the page: "$1,500.50" (the currency's own sign and decimals). */
export function formatAmount(minor: number, currency: string): string {
  const digits = digitsOf(currency);
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(minor / 10 ** digits);
  } catch {
    return `${(minor / 10 ** digits).toFixed(digits)} ${currency}`;
  }
}

/** For a form field, a CSV cell or JSON: "1500.50", no sign or grouping. */
export function plainAmount(minor: number, currency: string): string {
  const digits = digitsOf(currency);
  return (minor / 10 ** digits).toFixed(digits);
}
