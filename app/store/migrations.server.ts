import { migrations1To8 } from "~/store/migrations-1-to-8.server";
import { migrations9To13 } from "~/store/migrations-9-to-13.server";
import { migrations14To18 } from "~/store/migrations-14-to-18.server";
import { migrations19To23 } from "~/store/migrations-19-to-23.server";
import type { Migration } from "~/store/sql.server";

/**
 * The inbox's schema, versioned. Applied at start, each version once (recorded in schema_migrations). The SQL is
 * plain enough for SQLite and PostgreSQL alike; times are milliseconds since the epoch (BIGINT). Add a new version
 * at the end of the last list; never edit one that has shipped. The lists are kept in files of a few versions each,
 * so none grows past a screenful or two: when the last one passes 250 lines, start the next file.
 */
export const migrations: readonly Migration[] = [
  ...migrations1To8,
  ...migrations9To13,
  ...migrations14To18,
  ...migrations19To23,
];
