/**
 * The words `npm run inbox -- operator add` says about a new password (server only). Each says why a password is
 * refused, as NIST SP 800-63B asks; the CLI adds "Nothing was changed."
 */
export const passwordCopy = {
  tooShort: (min: number) => `the password must have at least ${min} characters`,
  tooLong: (max: number) => `the password may have at most ${max} characters`,
  repeated: "the password repeats characters or words (like aaaa or abcabc): choose one that does not",
  sequence: "the password is a sequence (like 1234 or abcd) an attacker tries early: choose another",
  keyboard: "the password is a run of neighbouring keys (like qwerty): choose another",
  context: "the password is built on your e-mail address or the business's name: choose one that is not",
  common: "the password is, or is built on, one of the most common passwords: choose another",
  guessable: "the password is too easy to guess: a few unrelated words make a strong one",
} as const;
