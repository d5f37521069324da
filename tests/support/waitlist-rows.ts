import { randomUUID } from "node:crypto";
import type { SqlClient } from "~/store/sql.server";
import type { WaitlistState } from "~/store/waitlist.types";

/**
 * Waitlist rows put in place by SQL, as the visitor's join and Confirm would leave them (the owner's side is tested
 * without them). The tokens are placeholders: nothing here opens a link.
 */
export interface WaitlistRow {
  email: string;
  state: WaitlistState;
  createdAt?: Date;
  confirmedAt?: Date | null;
  unsubscribedAt?: Date | null;
}

export async function putWaitlistRows(db: SqlClient, rows: readonly WaitlistRow[]): Promise<string[]> {
  const ids = rows.map(() => randomUUID());
  const at = Date.parse("2026-11-01T10:00:00Z");
  for (let start = 0; start < rows.length; start += 100) {
    await db.transaction(
      rows.slice(start, start + 100).map((row, index) => {
        const id = ids[start + index]!;
        const created = row.createdAt?.getTime() ?? at;
        const confirmed =
          row.state === "pending"
            ? null
            : (row.confirmedAt?.getTime() ?? (row.confirmedAt === null ? null : created + 60_000));
        return {
          sql: `INSERT INTO waitlist (id, email, state, created_at, confirm_token_hash, confirm_token_sealed, confirm_until,
                  confirmed_at, unsubscribe_token_hash, unsubscribe_token_sealed, unsubscribed_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          params: [
            id,
            row.email.toLowerCase(),
            row.state,
            created,
            row.state === "pending" ? `confirm-${id}` : null,
            row.state === "pending" ? "sealed" : null,
            row.state === "pending" ? created + 7 * 86_400_000 : null,
            confirmed,
            `unsubscribe-${id}`,
            "sealed",
            row.state === "unsubscribed" ? (row.unsubscribedAt?.getTime() ?? created + 120_000) : null,
          ],
        };
      }),
    );
  }
  return ids;
}

/** `count` confirmed addresses, n@list.example. */
export const confirmedAddresses = (count: number, domain = "list.example"): WaitlistRow[] =>
  Array.from({ length: count }, (_, n) => ({ email: `fan${n + 1}@${domain}`, state: "confirmed" as const }));
