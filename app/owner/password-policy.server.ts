import { brand } from "~/wording/shared";
import { passwordCopy } from "~/wording/operators";

/**
 * Which passwords an operator may choose (NIST SP 800-63B): 12 to 128 characters, no composition rules, and nothing an
 * attacker tries early — repeated or sequential characters, common passwords, or words from the operator's address or
 * the business's name. zxcvbn-ts estimates the guesses (its lists hold over 40,000 common passwords, so no list of our
 * own); the dictionaries are loaded on first use, so only `operator add` pays for them, never the login.
 */

export const passwordLength = { min: 12, max: 128 } as const;

/** zxcvbn's score: 3 is about 10^8 guesses or more ("safely unguessable" against an online attack). */
export const minimumScore = 3;

type Estimator = (password: string, userInputs: string[]) => import("@zxcvbn-ts/core").ZxcvbnResult;
let estimator: Promise<Estimator> | undefined;

function loadEstimator(): Promise<Estimator> {
  return (estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([
      import("@zxcvbn-ts/core"),
      import("@zxcvbn-ts/language-common"),
      import("@zxcvbn-ts/language-en"),
    ]);
    const zxcvbn = new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
    });
    return (password, userInputs) => zxcvbn.check(password, userInputs);
  })());
}

/** The words a password must not be built on: the address, its parts, and the business's name and its words. */
export function contextWords(email: string): string[] {
  const words = (text: string) =>
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length >= 3);
  const brandWords = words(brand.name);
  return [
    ...new Set([email.toLowerCase(), ...words(email), brand.name.toLowerCase(), brandWords.join(""), ...brandWords]),
  ];
}

/** Why the password may not be used by this operator, or null when it may. */
export async function passwordProblem(password: string, context: { email: string }): Promise<string | null> {
  const length = [...password].length;
  if (length < passwordLength.min) return passwordCopy.tooShort(passwordLength.min);
  if (length > passwordLength.max) return passwordCopy.tooLong(passwordLength.max);

  const check = await loadEstimator();
  const result = check(password.normalize("NFC"), contextWords(context.email));
  // Characters of the password that come from the context: half or more is "built on" it, whatever the score.
  const fromContext = result.sequence
    .filter((match) => match.pattern === "dictionary" && match.dictionaryName === "userInputs")
    .reduce((sum, match) => sum + match.token.length, 0);
  if (fromContext * 2 >= password.length) return passwordCopy.context;
  if (result.score >= minimumScore) return null;

  // The refusal names the weakest part: the match that accounts for most of the password.
  const main = [...result.sequence].sort((a, b) => b.token.length - a.token.length)[0];
  if (fromContext > 0) return passwordCopy.context;
  switch (main?.pattern) {
    case "repeat":
      return passwordCopy.repeated;
    case "sequence":
      return passwordCopy.sequence;
    case "spatial":
      return passwordCopy.keyboard;
    case "dictionary":
      return main.dictionaryName.startsWith("passwords") ? passwordCopy.common : passwordCopy.guessable;
    default:
      return passwordCopy.guessable;
  }
}
