import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseLocation } from "~/config.server";
import { createOwnerAlertRound } from "~/notify/owner-alert.server";
import { migrations } from "~/store/migrations.server";
import { openPostgres } from "~/store/postgres.server";
import { openSqlite } from "~/store/sqlite.server";
import { createInboxStore } from "~/store/store.server";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { useTempDir } from "../support/temp-dir";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * Schema v20: `login_alerts` becomes `owner_alerts`, each column holding what its name says. Alerts of every kind stored
 * at v19 survive it, the pending ones are still sent (through the real round to a real webhook receiver) with the same
 * words, the sent one is not sent again, and an erase takes a customer's answers by their enquiry, nobody else's.
 */

const temp = useTempDir("haunt-owner-alerts-");
let postgres: TestDatabases | undefined;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  if (postgresAvailable) postgres = await sharedPostgres();
}, 60_000);
afterAll(async () => {
  await receiver?.stop();
  await postgres?.stop();
});

const backends: { name: string; fresh: () => Promise<DatabaseLocation> }[] = [
  { name: "SQLite", fresh: async () => ({ kind: "sqlite", path: temp.file("alerts.db") }) },
  { name: "PostgreSQL", fresh: async () => ({ kind: "postgres", url: await postgres!.createDatabase() }) },
];

const publicUrl = "https://grimforge.example";
const at = (minute: number) => new Date(Date.UTC(2026, 9, 31, 22, minute));

for (const backend of backends) {
  describe.skipIf(backend.name === "PostgreSQL" && !postgresAvailable)(`the owner's alerts on ${backend.name}`, () => {
    it("keeps the alerts stored at v19 through v20 and sends the pending ones as before", async () => {
      const location = await backend.fresh();
      const client =
        location.kind === "sqlite"
          ? openSqlite(location.path, { timeoutMs: 10_000 })
          : openPostgres(location.url, { timeoutMs: 10_000 });
      try {
        await client.migrate(migrations.filter((migration) => migration.version <= 19));
        const before = createInboxStore(client);
        const { id: pugsley } = await before.save(
          { name: "Pugsley", email: "pugsley@example.com", message: "A rocket." },
          [],
        );
        const { id: wednesday } = await before.save(
          { name: "Wednesday", email: "wednesday@example.com", message: "A guillotine." },
          [],
        );
        // As v19's code stored them: a customer's answer with the name in operator_email, the enquiry in the detail.
        const rows: [string, string, string, string, string, string | null, string, number][] = [
          ["login-1", "login", "ann@grimforge.example", "Chrome on Android", "10.0.0.1", null, "pending", 0],
          [
            "key-1",
            "passkey-added",
            "ann@grimforge.example",
            "Firefox on Linux",
            "10.0.0.2",
            "Ann's phone",
            "pending",
            2,
          ],
          ["codes-1", "codes-added", "bob@grimforge.example", "Safari on macOS", "10.0.0.3", null, "pending", 0],
          [
            "answer-1",
            "customer-answer",
            "Pugsley",
            "",
            "",
            JSON.stringify({ enquiryId: pugsley, text: 'Can it "fly"?\nPlease' }),
            "pending",
            0,
          ],
          [
            "answer-2",
            "customer-answer",
            "Wednesday",
            "",
            "",
            JSON.stringify({ enquiryId: wednesday, text: "Sharper." }),
            "sent",
            1,
          ],
        ];
        for (const [index, [id, kind, operator, browser, address, detail, state, attempts]] of rows.entries())
          await client.query(
            `INSERT INTO login_alerts (id, channel, operator_email, at, browser, address, kind, detail, state, attempts,
               next_attempt_at, sent_at) VALUES (?, 'webhook', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            [
              id,
              operator,
              at(index).getTime(),
              browser,
              address,
              kind,
              detail,
              state,
              attempts,
              at(index).getTime(),
              state === "sent" ? at(index).getTime() : null,
            ],
          );

        await client.migrate(migrations);
        const stored = await client.query(
          `SELECT id, kind, operator_email, customer_name, enquiry_id, detail, state, attempts FROM owner_alerts
           ORDER BY at`,
        );
        expect(stored.map((row) => ({ ...row, attempts: Number(row.attempts) }))).toEqual([
          {
            id: "login-1",
            kind: "login",
            operator_email: "ann@grimforge.example",
            customer_name: null,
            enquiry_id: null,
            detail: null,
            state: "pending",
            attempts: 0,
          },
          {
            id: "key-1",
            kind: "passkey-added",
            operator_email: "ann@grimforge.example",
            customer_name: null,
            enquiry_id: null,
            detail: "Ann's phone",
            state: "pending",
            attempts: 2,
          },
          {
            id: "codes-1",
            kind: "codes-added",
            operator_email: "bob@grimforge.example",
            customer_name: null,
            enquiry_id: null,
            detail: null,
            state: "pending",
            attempts: 0,
          },
          {
            id: "answer-1",
            kind: "customer-answer",
            operator_email: null,
            customer_name: "Pugsley",
            enquiry_id: pugsley,
            detail: JSON.stringify({ text: 'Can it "fly"?\nPlease' }),
            state: "pending",
            attempts: 0,
          },
          {
            id: "answer-2",
            kind: "customer-answer",
            operator_email: null,
            customer_name: "Wednesday",
            enquiry_id: wednesday,
            detail: JSON.stringify({ text: "Sharper." }),
            state: "sent",
            attempts: 1,
          },
        ]);
        // The old table and its index are gone; the new ones are named after the table.
        const names = await client.query(
          location.kind === "sqlite"
            ? "SELECT name FROM sqlite_master WHERE name LIKE '%_alerts%' ORDER BY name"
            : `SELECT relname AS name FROM pg_class WHERE relname LIKE '%\\_alerts%' AND relkind IN ('r', 'i')
               AND relnamespace = current_schema()::regnamespace ORDER BY relname`,
        );
        expect(names.map((row) => row.name)).toEqual(
          [
            "owner_alerts",
            "owner_alerts_due",
            "owner_alerts_enquiry",
            ...(location.kind === "sqlite" ? ["sqlite_autoindex_owner_alerts_1"] : ["owner_alerts_pkey"]),
          ].sort(),
        );

        const store = createInboxStore(client);
        const posted = receiver.posts.length;
        const round = createOwnerAlertRound({
          store,
          notify: { email: undefined, webhookUrl: receiver.url, webhookFormat: "json" },
          timeZone: "Europe/London",
          publicUrl,
          now: () => at(30),
        });
        try {
          expect(await round.run(AbortSignal.timeout(10_000))).toBeNull();
        } finally {
          round.close();
        }
        const bodies = receiver.posts.slice(posted).map((post) => post.json as Record<string, Record<string, unknown>>);
        expect(bodies).toHaveLength(4);
        const logins = bodies.filter((body) => body.loginAlert).map((body) => body.loginAlert);
        expect(logins).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ kind: "login", operator: "ann@grimforge.example", browser: "Chrome on Android" }),
            expect.objectContaining({ kind: "passkey-added", operator: "ann@grimforge.example", address: "10.0.0.2" }),
            expect.objectContaining({ kind: "codes-added", operator: "bob@grimforge.example" }),
          ]),
        );
        expect(String(bodies.find((body) => body.loginAlert?.kind === "passkey-added")!.content)).toContain(
          "Ann's phone",
        );
        expect(bodies.filter((body) => body.customerAnswer).map((body) => body.customerAnswer)).toEqual([
          {
            name: "Pugsley",
            text: 'Can it "fly"?\nPlease',
            at: at(3).toISOString(),
            enquiryUrl: `${publicUrl}/inbox/${pugsley}`,
          },
        ]);
        expect((await client.query("SELECT state FROM owner_alerts ORDER BY at")).map((row) => row.state)).toEqual([
          "sent",
          "sent",
          "sent",
          "sent",
          "sent",
        ]);

        // An answer stored after v20 is stored and read back the same way; an erase takes a customer's only.
        expect(await store.answerFromBuildPage(wednesday, "Sharper still.", ["webhook"], at(40))).toBe(true);
        const [answer] = await store.claimOwnerAlerts(5, at(40));
        expect(answer).toMatchObject({
          kind: "customer-answer",
          operatorEmail: null,
          customerName: "Wednesday",
          enquiryId: wednesday,
          detail: "Sharper still.",
        });
        expect(await store.erase("wednesday@example.com", at(41))).toBe(1);
        expect((await client.query("SELECT id FROM owner_alerts ORDER BY at")).map((row) => row.id)).toEqual([
          "login-1",
          "key-1",
          "codes-1",
          "answer-1",
        ]);
      } finally {
        await client.close();
      }
    });
  });
}
