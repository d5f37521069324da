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
  codes: {
    off: "Off: you log in without one-time codes.",
    on: "On: after your password, the login asks for a 6-digit code from your authenticator app.",
    intro:
      "One-time codes come from an authenticator app on your phone (such as Google Authenticator, Microsoft " +
      "Authenticator, 1Password or Aegis). They work in any browser, with or without JavaScript.",
    start: "Set up one-time codes",
    setupHeading: "Add the inbox to your authenticator app",
    scan: "Scan this QR code with the app, or type the key below into it by hand.",
    qrLabel: "QR code for your authenticator app",
    secretLabel: "Key",
    secretHint: "Time-based, 6 digits, every 30 seconds. Spaces do not matter.",
    confirmIntro: "Then type the 6-digit code the app shows now, to prove the app and the inbox agree.",
    code: "Code",
    confirm: "Confirm",
    wrongCode:
      "That code is not right. Type the newest code the app shows for this key (it changes every 30 seconds) " +
      "and check the phone's clock is set automatically.",
    noCode: "Type the 6-digit code from the app.",
    notStarted: 'Set-up had not started, or it has finished already. Press "Set up one-time codes" to begin.',
    alreadyOn: "One-time codes are on already.",
    doneHeading: "One-time codes are on",
    done: "From now on the login asks for a code from your app after your password.",
    recoveryHeading: "Your recovery codes",
    recoveryIntro:
      "Write these codes down, or print them, and keep them somewhere safe away from your phone. If you lose the " +
      "phone, each code logs you in once, typed in the Code field. They are shown only now: once you leave this " +
      "page nobody can see them again, not even you.",
    recoveryListLabel: "Recovery codes, one a line",
    goToInbox: "Go to the enquiries",
    recoveryLeft: (left: number) =>
      left === 0
        ? "No recovery codes left: make new ones now."
        : `${left} unused recovery ${left === 1 ? "code" : "codes"} left.`,
    newRecovery: "Make new recovery codes",
    newRecoveryHint: "The old recovery codes stop working at once.",
    newRecoveryDone: "New recovery codes made; the old ones no longer work.",
    remove: "Remove one-time codes",
    removeHint: "The app's codes and every recovery code stop working.",
    removed: "One-time codes removed.",
    lastFactor:
      "One-time codes are your only second factor, and the inbox requires one: add a passkey first, then remove " +
      "the one-time codes.",
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
    stepUp:
      "Adding a passkey cannot be undone from elsewhere, so first confirm it is you: you are taken to the code page.",
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
    /** Step-up: after againIntro, what happens once the code is accepted (by the page that asked). */
    againWhy: {
      erase: "After the code you come back to the erase page: press Erase again to erase.",
      publish:
        "Your draft is saved, nothing you typed is lost. After the code you come back to the Site page: press " +
        "Publish again to make it public.",
      restore: "After the code you come back to the history: press Restore again.",
      export: "After the code you come back to the list: press Download CSV again to download the enquiries.",
      figures: "After the code you come back to the Figures page: press Download CSV again to download the figures.",
      security: "After the code you come back to the Security page: press the button again.",
      "build-page": "After the code you come back to the enquiry: press Share build page (or Revoke) again.",
      "waitlist-export":
        "After the code you come back to the Waitlist page: press Download CSV again to download the list.",
      "waitlist-erase": "After the code you come back to the erase page: press Erase it again to erase the address.",
      announce:
        "Nothing was sent. After the code you come back to the announcement: check the words and press Send " +
        "announcement again.",
    },
  },
  /** The Security page's sessions: where the operator is logged in. */
  sessions: {
    intro:
      "Each browser logged in to the inbox as you. If you see one you do not know, log it out and change your password.",
    thisBrowser: "This browser",
    lastSeen: "Last seen",
    address: "Approximate address",
    unknownAddress: "unknown",
    stageWaiting: "Waiting for its second step",
    end: "Log out",
    endLabel: (browser: string, lastSeen: string) => `Log out ${browser}, last seen ${lastSeen}`,
    endOthers: "Log out everywhere else",
    onlyThis: "You are logged in only here.",
    ended: "That browser is logged out.",
    endedNone: "That session had ended already.",
    endedOthers: (count: number) =>
      count === 0
        ? "There was nowhere else to log out."
        : `Logged out everywhere else (${count} ${count === 1 ? "browser" : "browsers"}).`,
  },
  /** The notification sent when an operator logs in from a browser not seen before for that operator. */
  loginAlert: {
    subject: "New login to the inbox",
    head: "New login to the inbox",
    intro: (email: string) => `Someone logged in to the inbox as ${email} from a browser not seen before.`,
    when: "When",
    browser: "Browser",
    address: "Approximate address",
    ifYou: "If this was you, there is nothing to do.",
    ifNotYou: "If it was not you:",
    steps: (securityUrl: string, email: string) => [
      `1. Open the Security page: ${securityUrl}`,
      '2. Press "Log out everywhere else".',
      `3. Change your password on the server: npm run inbox -- operator add ${email}`,
    ],
    securityButton: "Open the Security page",
  },
  /**
   * The notification sent when a factor is added to an account: someone holding a session could otherwise
   * add their own and come back later without the password; it is announced on the same channels as a new login.
   */
  factorAlert: {
    head: {
      passkey: "A passkey was added to your account",
      codes: "One-time codes were set up for your account",
    },
    intro: {
      passkey: (email: string, name: string) =>
        `A passkey named "${name}" was added to the inbox account ${email}. It can log in without the password.`,
      codes: (email: string) =>
        `One-time codes (an authenticator app) were set up for the inbox account ${email}. They can pass the login's second step.`,
    },
    steps: (securityUrl: string, email: string) => [
      `1. Open the Security page: ${securityUrl}`,
      "2. Remove the passkey or the one-time codes you do not know.",
      '3. Press "Log out everywhere else".',
      `4. Change your password on the server: npm run inbox -- operator add ${email}`,
    ],
  },
} as const;
