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
  passkeys: {
    intro:
      "A passkey lets you log in with your phone, computer or security key instead of a password and a code. It " +
      "stays on your device; the site keeps only its public half.",
    none: "No passkeys yet.",
    nameLabel: "Passkey name",
    nameHint: "So you can tell your passkeys apart, for example the device it is on.",
    defaultName: (browser: string) => `Passkey on ${browser}`,
    add: "Add a passkey",
    adding: "Waiting for your device…",
    added: "Added",
    lastUsed: "Last used",
    neverUsed: "never",
    remove: "Remove",
    removeLabel: (name: string) => `Remove the passkey ${name}`,
    needsJs: "Passkeys need JavaScript in this browser. Turn it on to add one, or set up one-time codes below.",
    unsupported: "This browser cannot use passkeys. Set up one-time codes below instead.",
    done: {
      added: "Passkey added. You can log in with it from now on.",
      addedSetup: "Passkey added. The inbox is open:",
      toInbox: "go to the enquiries",
      removed: "Passkey removed.",
    },
    lastFactor:
      "This is your only way to prove it is you besides the password, and this inbox requires one. Add another " +
      "passkey or set up one-time codes first, then remove this one.",
    notFound: "That passkey is not on your account any more. The list below is up to date.",
    // The ceremony's outcomes, shown in role="alert".
    cancelled: "The passkey request was cancelled or timed out. Nothing was changed; try again when you are ready.",
    alreadyRegistered: "This device already holds a passkey for your account. Use that one, or remove it first.",
    nameMissing: "Give the passkey a name (up to 60 characters).",
    expired: "That passkey request has expired or was already used. Try again.",
    refused: "That passkey was not accepted. Try again, or use another way to log in.",
    unknownKey: "That passkey is not known here. It may have been removed; log in with your password instead.",
    notVerified:
      "Your device did not confirm it is you (a PIN, fingerprint or face). A passkey alone needs that to log in.",
    badRequest: "That request was not understood. Reload the page and try again.",
    sessionEnded: "Your session has ended. Log in again.",
    network: "The site could not be reached. Check your connection and try again.",
    failed: "Something went wrong with the passkey. Try again.",
    login: "Log in with a passkey",
    loginNeedsJs: "Passkeys need JavaScript in this browser; log in with your password and a code instead.",
    unsupportedLogin: "This browser cannot use passkeys; log in with your password and a code instead.",
    unsupportedVerify: "This browser cannot use passkeys; type a code instead.",
    or: "or",
    otherOperator: "That passkey belongs to another account. Use one of your own passkeys.",
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
