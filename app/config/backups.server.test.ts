import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";

describe("parseConfig: backups", () => {
  it("takes backups hourly into backups/ beside the SQLite file unless told otherwise, with a 32-byte key", () => {
    expect(parseConfig({ DATABASE_URL: "file:/var/lib/haunt/inbox.db" }).backup?.dir).toBe("/var/lib/haunt/backups");
    expect(parseConfig({ DATABASE_URL: "file:inbox.db" }).backup?.dir).toBe("backups");
    expect(parseConfig({ DATABASE_URL: "postgres://db/haunt" }).backup?.dir).toBeUndefined();
    expect(parseConfig({ BACKUP_DIR: "/app/backups" }).backup?.dir).toBe("/app/backups");
    expect(parseConfig({ BACKUP_INTERVAL: "30m" }).backup?.intervalMs).toBe(1_800_000);
    expect(parseConfig({ BACKUP_INTERVAL: " 1D " }).backup?.intervalMs).toBe(86_400_000);
    expect(parseConfig({ BACKUP_INTERVAL: "off" }).backup?.intervalMs).toBeNull();
    for (const bad of ["1", "5s", "8d", "hourly", "-1h"])
      expect(() => parseConfig({ BACKUP_INTERVAL: bad })).toThrow(/BACKUP_INTERVAL: must be a time from 10s to 7d/);
    expect(parseConfig({ BACKUP_KEEP_HOURLY: "48", BACKUP_KEEP_DAILY: "0" }).backup).toMatchObject({
      keepHourly: 48,
      keepDaily: 0,
    });
    expect(() => parseConfig({ BACKUP_KEEP_HOURLY: "0" })).toThrow(/BACKUP_KEEP_HOURLY/);
    const key = Buffer.alloc(32, 7);
    expect(parseConfig({ BACKUP_KEY: key.toString("base64") }).backup?.key).toEqual(key);
    for (const bad of [Buffer.alloc(16).toString("base64"), "not base64 at all!!", `${key.toString("base64")}AAAA`])
      expect(() => parseConfig({ BACKUP_KEY: bad })).toThrow(/BACKUP_KEY: must be 32 random bytes in base64/);
  });
});
