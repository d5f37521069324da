/**
 * The words of `npm run inbox -- site export` and `site import FILE` (server only): a backup of the site's published
 * content, or moving it to another site, from the terminal.
 */

export const siteTransferCopy = {
  usage: `  site export                   the published site content (its words, season and business details) as
                                JSON on stdout: a backup, or for another site
  site import FILE              check a file made by site export and publish it as a new version (in the
                                Site page's history and the activity log); running servers show it within
                                a second or two
`,
  tooLarge: (file: string, maxBytes: number) =>
    `${file} is larger than ${maxBytes / 1024 / 1024} MiB: not a file made by site export. Nothing was published.`,
  unreadable: (file: string, reason: string) => `cannot read ${file}: ${reason}. Nothing was published.`,
  notJson: (file: string) => `${file} is not JSON: not a file made by site export. Nothing was published.`,
  wrongFormat: (file: string) =>
    `${file} is not a site export (its "format" is not "haunt-site-content"). Nothing was published.`,
  otherVersion: (file: string, version: unknown) =>
    `${file} is a site export of format version ${String(version)}, which this version of the site cannot read. ` +
    "Nothing was published.",
  noContent: (file: string) => `${file} has no "content" to publish. Nothing was published.`,
  invalid: (file: string, count: number) =>
    `${file} cannot be published: ${count === 1 ? "one field needs" : `${count} fields need`} fixing. Nothing was published.`,
  published: (version: number) => `Published version ${version}. Running servers show it within a second or two.`,
  unchanged: "Nothing to publish: the file holds what is already published.",
  /** The saved draft an import replaced: it is the content the import published now. */
  draftReplaced: (by: string, at: string) =>
    `The draft saved on the Site page by ${by} (${at}) was replaced by the imported content.`,
  stale: (by: string, at: string) =>
    `${by} saved the site's draft (${at}) while the import ran. Nothing was published: run the import again.`,
} as const;
