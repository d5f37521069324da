import { open } from "node:fs/promises";
import { siteTransferCopy as copy } from "~/wording/site-transfer";
import { contentFromJson, defaultSiteContent } from "~/site-content/schema.server";
import { describeChanges } from "~/site-content/changes";
import { publishContent, publishedContent } from "~/site-content/publish.server";
import { importMaxBytes, readSiteExport, siteExport, type ReadExport } from "~/site-content/transfer";
import { visible } from "~/text/safety";
import { openStoreForCommand, type CommandIo } from "./command-io";

/**
 * `npm run inbox -- site export` and `site import FILE`: the site's published content as a file, and a file published
 * as a new version the way the Site page publishes (one transaction, its history entry and activity entry). Running
 * servers learn of it by their poll (server/site-content-poll.ts).
 */

export const siteUsage = copy.usage;
export const isSiteCommand = (argv: readonly string[]) => argv[0] === "site";

const actor = "command line (site import)";
const when = (at: Date | null) =>
  at ? `${at.toISOString().slice(0, 16).replace("T", " ")} UTC` : "at an unknown time";

/** Resolves with the exit code (0 done, 1 failed, 2 wrong usage). */
export async function runSiteCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const [, sub, ...rest] = argv;
  const wrong = (message: string) => {
    io.stderr.write(`inbox: ${message}\nTry 'npm run inbox -- --help'.\n`);
    return 2;
  };
  if (sub === "export" ? rest.length > 0 : sub !== "import" || rest.length !== 1)
    return wrong("site export, or site import FILE");

  let imported: ReturnType<typeof readSiteExport> | undefined;
  if (sub === "import") {
    const file = visible(rest[0]!);
    const text = await readCapped(rest[0]!).catch((error: NodeJS.ErrnoException) => {
      io.stderr.write(`inbox: ${copy.unreadable(file, error.code === "ENOENT" ? "no such file" : error.message)}\n`);
      return null;
    });
    if (text === null) return 1;
    if (text === undefined) {
      io.stderr.write(`inbox: ${copy.tooLarge(file, importMaxBytes)}\n`);
      return 1;
    }
    imported = readSiteExport(text);
    if (!imported.ok) {
      io.stderr.write(`inbox: ${problemWords(file, imported)}\n`);
      if (imported.problem === "invalid")
        for (const { label, message } of imported.fields) io.stderr.write(`  ${label}: ${message}\n`);
      return 1;
    }
  }

  const store = await openStoreForCommand(io);
  if (!store) return 1;
  try {
    if (!imported) {
      const published = await store.publishedSite();
      const content = published ? contentFromJson(published.content) : defaultSiteContent;
      io.stdout.write(`${JSON.stringify(siteExport(published, content), null, 2)}\n`);
      return 0;
    }
    if (!imported.ok) return 1;
    const current = await publishedContent(store);
    const draft = await store.siteDraft();
    // A draft saved on the Site page and not published yet: an import replaces it, so it says so.
    const unpublishedDraft =
      draft.content !== null && JSON.stringify(contentFromJson(draft.content)) !== JSON.stringify(current);
    // Nothing to publish: the draft is left as it is (publishContent would keep the file's content as the draft).
    if (describeChanges(current, imported.content).length === 0) {
      io.stdout.write(`${copy.unchanged}\n`);
      return 0;
    }
    const result = await publishContent(store, imported.content, draft.revision, actor);
    if (result.ok) {
      io.stdout.write(`${copy.published(result.version)}\n`);
      for (const { label, before, after } of result.changes)
        io.stdout.write(before === "" ? `  ${label}: ${after}\n` : `  ${label}: ${before} → ${after}\n`);
      if (unpublishedDraft)
        io.stdout.write(`${copy.draftReplaced(draft.savedBy ?? "an operator", when(draft.savedAt))}\n`);
      return 0;
    }
    if (result.reason === "unchanged") {
      io.stdout.write(`${copy.unchanged}\n`);
      return 0;
    }
    io.stderr.write(`inbox: ${copy.stale(result.draft.savedBy ?? "an operator", when(result.draft.savedAt))}\n`);
    return 1;
  } catch (error) {
    io.stderr.write(`inbox: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await store.close();
  }
}

function problemWords(file: string, refused: Exclude<ReadExport, { ok: true }>): string {
  switch (refused.problem) {
    case "not-json":
      return copy.notJson(file);
    case "wrong-format":
      return copy.wrongFormat(file);
    case "other-version":
      return copy.otherVersion(file, refused.formatVersion);
    case "no-content":
      return copy.noContent(file);
    case "invalid":
      return copy.invalid(file, refused.fields.length);
  }
}

/** The file's text, or undefined when it is larger than an import takes (read no further than that). */
async function readCapped(path: string): Promise<string | undefined> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(importMaxBytes + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > importMaxBytes) return undefined;
    }
    return buffer.subarray(0, length).toString("utf8");
  } finally {
    await handle.close();
  }
}
