import { beforeAll, describe, expect, it } from "vitest";
import { brand } from "~/wording/shared";
import { contextWords, passwordProblem } from "~/owner/password-policy.server";

const email = "owner@grimforge.example";
const problem = (password: string, address = email) => passwordProblem(password, { email: address });

describe("the password policy (NIST SP 800-63B)", () => {
  // The first check loads zxcvbn's dictionaries (seconds on a loaded machine): done once here, outside any one test.
  beforeAll(() => problem("a first password to load the dictionaries"), 60_000);

  it("needs 12 to 128 characters, counted as characters, not bytes or UTF-16 units", async () => {
    expect(await problem("short pass")).toMatch(/at least 12/);
    expect(await problem("🦇🕸🎃🕯👻🪦💀🧛🕷🌕🧟")).toMatch(/at least 12/); // 11 characters, 22 UTF-16 units
    expect(await problem("x".repeat(129))).toMatch(/at most 128/);
  });

  it.each([
    ["aaaaaaaaaaaa", /repeats/],
    [" ".repeat(12), /repeats/],
    ["111111111111", /repeats/],
    ["passwordpassword", /repeats/],
    ["🎃".repeat(12), /repeats/],
    ["abcdefghijklmn", /sequence/],
    ["123456789012", /most common|sequence/],
    ["Password1234", /most common/],
    ["qwertyuiopasdf", /neighbouring keys|most common/],
    ["Unbelievable", /too easy to guess/],
  ])("refuses %j and says why", async (password, reason) => {
    expect(await problem(password)).toMatch(reason);
  });

  it.each([
    email,
    "Owner@Grimforge.example1",
    "grimforge.example!",
    "Owner-2026-example",
    brand.name,
    "Grimforge Haunt Props!",
    "grimforgehauntprops",
    "HauntProps2026!",
    "GrimforgeProps2026",
  ])("refuses %j: built on the operator's address or the business's name", async (password) => {
    expect(await problem(password)).toMatch(/e-mail address or the business's name/);
  });

  it("accepts a passphrase of unrelated words, and the same words are refused as another operator's address", async () => {
    expect(await problem("Grave digger at midnight")).toBeNull();
    expect(await problem("correct horse battery staple")).toBeNull();
    expect(await problem("lantern velvet orchard 47")).toBeNull();
    expect(await problem("velvetorchard@lantern.example", "velvetorchard@lantern.example")).toMatch(/e-mail address/);
  });

  it("takes the address, its parts, the brand and its words as the context", () => {
    expect(contextWords("Owner.Name@grimforge.example")).toEqual(
      expect.arrayContaining(["owner.name@grimforge.example", "owner", "name", "grimforge", "haunt", "props"]),
    );
  });
});
