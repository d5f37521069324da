import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";

describe("parseConfig: database (DATABASE_URL, STORE_TIMEOUT_MS, INBOX_FILE)", () => {
  it("reads DATABASE_URL as a SQLite file or a PostgreSQL URL, and refuses anything else naming the variable", () => {
    expect(parseConfig({ DATABASE_URL: "file:/var/lib/haunt/enquiries.db" }).database).toEqual({
      kind: "sqlite",
      path: "/var/lib/haunt/enquiries.db",
    });
    expect(parseConfig({ DATABASE_URL: "postgres://haunt:secret@db:5432/haunt" }).database).toEqual({
      kind: "postgres",
      url: "postgres://haunt:secret@db:5432/haunt",
    });
    for (const bad of ["enquiries.db", "mysql://db/haunt", "postgres://", "file:"]) {
      expect(() => parseConfig({ DATABASE_URL: bad })).toThrow(/DATABASE_URL/);
    }
    expect(() => parseConfig({ STORE_TIMEOUT_MS: "10" })).toThrow(/STORE_TIMEOUT_MS/);
  });

  it("keeps INBOX_FILE as given", () => {
    expect(parseConfig({ INBOX_FILE: "/var/lib/haunt/enquiries.jsonl" }).inboxFile).toBe(
      "/var/lib/haunt/enquiries.jsonl",
    );
  });
});
