/** Every word of the second factor: the code page, the Security page, the login's passkey button and the alerts. */
export const securityCopy = {
  nav: "Security",
  page: {
    title: "Security",
    intro: "How you log in to the inbox: passkeys, one-time codes and the places you are logged in.",
    setupRequired:
      "Before you can read enquiries, add a second way to prove it is you: a passkey, or one-time codes from an " +
      "authenticator app. This keeps the inbox safe even if your password leaks.",
    passkeys: "Passkeys",
    codes: "One-time codes",
    sessions: "Where you are logged in",
    unknownAction: "Unknown action.",
  },
  verify: {
    title: "Second step",
    heading: "One more step",
    intro: "Type the 6-digit code from your authenticator app, or one of your recovery codes.",
    againIntro:
      "This cannot be undone, so confirm it is you: type a code from your authenticator app or a recovery code.",
    code: "Code",
    codeHint: "6 digits from the app, or a recovery code such as k7q2m-x9d4t.",
    submit: "Verify",
    wrong: "That code is not right, or it was used already. Type the newest code from your app and try again.",
    throttled: (minutes: number) =>
      `Too many wrong codes. For your safety, wait ${minutes} ${minutes === 1 ? "minute" : "minutes"} and try again.`,
    passkey: "Use a passkey instead",
    passkeyNeedsJs: "Passkeys need JavaScript in this browser; the code works without it.",
    noCodes: "You have no one-time codes set up: use one of your passkeys.",
    otherAccount: "Log out",
  },
} as const;
