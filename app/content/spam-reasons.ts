/**
 * The spam filter's reasons, in the words the owner reads in the inbox beside each enquiry (server only). Each
 * enquiry keeps the reasons it was given, so changing a word here changes only what later enquiries show.
 */
export const spamReasons = {
  honeypot: "hidden field filled",
  formToken: {
    missing: "form token missing",
    forged: "form token forged",
    expired: "form token older than 24 h",
    used: "form token used before",
    "too-fast": "posted less than 3 s after the form was served",
  },
  manyLinks: (links: number) => `more than two links (${links})`,
  addressInName: "link or address in the name",
  capitals: "mostly capital letters",
  phrase: (phrase: string) => `phrase "${phrase}"`,
} as const;
