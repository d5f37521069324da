import { describe, expect, it } from "vitest";
import type { FormTokenProblem } from "~/enquiry/form-token.server";
import { judgeEnquiry } from "~/enquiry/spam.server";

const plain = { name: "Jane Doe", email: "jane@example.com", message: "Do you build animatronic werewolves?" };

describe("spam verdict: a bot's behaviour is spam outright", () => {
  it("an ordinary enquiry is not spam", () => {
    const verdict = judgeEnquiry(plain);
    expect(verdict.verdict).toBe("none");
    expect(verdict.score).toBeLessThan(0.1);
  });

  it("the hidden field filled is spam", () => {
    expect(judgeEnquiry({ ...plain, honeypot: "http://x.example" })).toEqual({
      verdict: "spam",
      score: 1,
      reasons: ["hidden field filled"],
    });
  });

  it.each<[FormTokenProblem, string]>([
    ["missing", "form token missing"],
    ["forged", "form token forged"],
    ["expired", "form token older than 24 h"],
    ["used", "form token used before"],
    ["too-fast", "posted less than 3 s after the form was served"],
  ])("a form token %s is spam", (problem, reason) => {
    expect(judgeEnquiry({ ...plain, formToken: problem })).toEqual({ verdict: "spam", score: 1, reasons: [reason] });
  });

  it("a long message posted by a person is judged by its words, not its length", () => {
    const long = `${"We run a haunted hayride and need a lunging werewolf for the barn scene. ".repeat(60)}Thanks!`;
    expect(judgeEnquiry({ ...plain, message: long }).verdict).toBe("none");
  });
});

describe("spam verdict: content alone is weighed, and these are no evidence by themselves", () => {
  const price = { ...plain, message: "Please send me a price for the coffin prop, thank you. Is the witch available?" };

  it("capitals: the same words in capitals weigh the same", () => {
    const shouted = { ...price, name: plain.name.toUpperCase(), message: price.message.toUpperCase() };
    expect(judgeEnquiry(shouted)).toEqual(judgeEnquiry(price));
    expect(judgeEnquiry(shouted).verdict).toBe("none");
  });

  it("prices and phone numbers", () => {
    const words = { ...price, message: `${price.message} Budget about . Call me on or .` };
    const withNumbers = {
      ...price,
      message: `${price.message} Budget about $2,500. Call me on +1 (555) 014-2397 or 555 218 4470.`,
    };
    expect(judgeEnquiry(withNumbers)).toEqual(judgeEnquiry(words));
    expect(judgeEnquiry(withNumbers).verdict).toBe("none");
  });

  it.each([
    ["Dutch", "Hallo, wat kost de heks met verzending naar Utrecht? Groet, Anke"],
    ["German", "Guten Tag, was kostet die Hexe mit Versand nach Köln? Danke!"],
    ["Spanish", "Hola, ¿cuánto cuesta la bruja con envío a Sevilla? Gracias."],
    ["Russian", "Добрый вечер! Сколько стоит ведьма с доставкой в Казань?"],
    ["Japanese", "魔女の人形の値段を教えてください。大阪への発送は可能ですか？"],
    ["Polish", "Dzień dobry, ile kosztuje czarownica z wysyłką do Gdańska?"],
  ])("another language (%s)", (_, message) => {
    expect(judgeEnquiry({ ...plain, message }).verdict).toBe("none");
  });

  it("links to the sender's own site, to videos and to their social profiles", () => {
    const sender = { name: "Sarah @ Nightmare Acres", email: "sarah@nightmareacres.com" };
    const message =
      "Our haunt: https://nightmareacres.com and https://instagram.com/nightmareacres. We want something like " +
      "https://www.youtube.com/watch?v=abc123 for the barn. Price?";
    const verdict = judgeEnquiry({ ...sender, message });
    expect(verdict.verdict).toBe("none");
    expect(judgeEnquiry({ name: "Tom (FrightFarm.com)", email: "tom@frightfarm.com", message }).verdict).toBe("none");
  });

  it("a customer asking whether crypto is taken, in capitals", () => {
    const message = "DO YOU TAKE CRYPTO AS PAYMENT? I WANT THE SKELETON BUTLER FOR OUR PORCH. THANKS";
    expect(judgeEnquiry({ ...plain, message }).verdict).toBe("none");
  });

  it("a pitch is spam with its reasons in the owner's words", () => {
    const pitch = {
      name: "Mike",
      email: "mike@rankfast.example",
      message:
        "Hi, I noticed your website is not ranking on the first page of Google. Our SEO experts can fix your " +
        "search engine ranking and get you more website traffic. Reply for a free audit.",
    };
    const verdict = judgeEnquiry(pitch);
    expect(verdict.verdict).toBe("spam");
    expect(verdict.score).toBeGreaterThan(0.98);
    expect(verdict.reasons.length).toBeGreaterThan(0);
    expect(verdict.reasons.length).toBeLessThanOrEqual(5);
    expect(verdict.reasons).toContainEqual(expect.stringMatching(/^the word "seo" \(9\d % spam\)$/));
  });
});
