import { operatorFrom, sessionStage, time } from "~/store/rows.server";
import { sealerWith, totpSecretColumn, type SecretsSealer } from "~/store/sealed-secrets.server";
import { transaction, type Row, type SqlClient } from "~/store/sql.server";
import type { FactorStore, Passkey } from "~/store/factors.types";

/**
 * The second factor's rows, written once over a SqlClient for SQLite and PostgreSQL. Everything that must happen once
 * (a one-time code's step, a recovery code, a WebAuthn challenge) is decided by one conditional statement, so two
 * instances racing with the same code or challenge never both succeed.
 */

const timeOrNull = (value: unknown) => (value === null || value === undefined ? null : time(value));

const passkeyFrom = (row: Row): Passkey => ({
  id: String(row.id),
  operatorId: String(row.operator_id),
  name: String(row.name),
  publicKey: String(row.public_key),
  counter: Number(row.counter),
  transports: String(row.transports ?? "")
    .split(",")
    .filter(Boolean),
  createdAt: time(row.created_at),
  lastUsedAt: timeOrNull(row.last_used_at),
});

/** `sealer`: one-time-code secrets are sealed with SECRETS_KEY when it is set (ADR 0034). */
export function factorOperations(db: SqlClient, sealer: SecretsSealer = sealerWith(undefined)): FactorStore {
  const operations: FactorStore = {
    async hasSecondFactor(operatorId) {
      const [row] = await db.query(
        `SELECT (SELECT COUNT(*) FROM totp_factors WHERE operator_id = ? AND confirmed_at IS NOT NULL)
              + (SELECT COUNT(*) FROM passkeys WHERE operator_id = ?) AS n`,
        [operatorId, operatorId],
      );
      return Number(row?.n ?? 0) > 0;
    },

    async passSecondFactor(idHash, now = new Date(), renewTo) {
      await db.query("UPDATE sessions SET stage = 'full', factor_at = ?, id_hash = ? WHERE id_hash = ?", [
        now.getTime(),
        renewTo ?? idHash,
        idHash,
      ]);
    },

    async finishSetup(idHash, renewTo) {
      const rows = await db.query(
        "UPDATE sessions SET stage = 'full', id_hash = ? WHERE id_hash = ? AND stage = 'setup' RETURNING id_hash",
        [renewTo, idHash],
      );
      return rows.length === 1;
    },

    async listSessions(operatorId) {
      const rows = await db.query("SELECT * FROM sessions WHERE operator_id = ? ORDER BY last_seen_at DESC, id_hash", [
        operatorId,
      ]);
      return rows.map((row) => ({
        idHash: String(row.id_hash),
        createdAt: time(row.created_at),
        lastSeenAt: time(row.last_seen_at),
        browser: String(row.browser ?? ""),
        client: String(row.client ?? ""),
        stage: sessionStage(row.stage),
      }));
    },

    async endSession(operatorId, idHash) {
      const rows = await db.query("DELETE FROM sessions WHERE operator_id = ? AND id_hash = ? RETURNING id_hash", [
        operatorId,
        idHash,
      ]);
      return rows.length > 0;
    },

    async endOtherSessions(operatorId, keepIdHash) {
      const rows = await db.query("DELETE FROM sessions WHERE operator_id = ? AND id_hash <> ? RETURNING id_hash", [
        operatorId,
        keepIdHash,
      ]);
      return rows.length;
    },

    async totpFactor(operatorId) {
      const [row] = await db.query("SELECT * FROM totp_factors WHERE operator_id = ?", [operatorId]);
      if (!row) return null;
      const secret = sealer.open(String(row.secret), totpSecretColumn, operatorId);
      return { secret, confirmedAt: timeOrNull(row.confirmed_at), lastStep: Number(row.last_step) };
    },

    async startTotp(operatorId, secret, now = new Date()) {
      const rows = await db.query(
        `INSERT INTO totp_factors (operator_id, secret, created_at) VALUES (?, ?, ?)
         ON CONFLICT (operator_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at
           WHERE totp_factors.confirmed_at IS NULL
         RETURNING operator_id`,
        [operatorId, sealer.seal(secret, totpSecretColumn, operatorId), now.getTime()],
      );
      return rows.length > 0;
    },

    async takeTotpStep(operatorId, step, { confirm = false, now = new Date() } = {}) {
      // One statement: of two requests with the same code (on any instance), only one sees last_step below it.
      const rows = await db.query(
        confirm
          ? `UPDATE totp_factors SET last_step = ?, confirmed_at = COALESCE(confirmed_at, ?)
             WHERE operator_id = ? AND last_step < ? RETURNING operator_id`
          : `UPDATE totp_factors SET last_step = ?
             WHERE operator_id = ? AND last_step < ? AND confirmed_at IS NOT NULL RETURNING operator_id`,
        confirm ? [step, now.getTime(), operatorId, step] : [step, operatorId, step],
      );
      return rows.length > 0;
    },

    async removeTotp(operatorId) {
      const { removed } = await transaction(db, [
        {
          sql: "DELETE FROM totp_factors WHERE operator_id = ? RETURNING operator_id",
          params: [operatorId],
          name: "removed",
        },
        { sql: "DELETE FROM recovery_codes WHERE operator_id = ?", params: [operatorId] },
      ]);
      return (removed ?? []).length > 0;
    },

    async replaceRecoveryCodes(operatorId, hashes) {
      await transaction(db, [
        { sql: "DELETE FROM recovery_codes WHERE operator_id = ?", params: [operatorId] },
        ...hashes.map((hash) => ({
          sql: "INSERT INTO recovery_codes (operator_id, code_hash) VALUES (?, ?)",
          params: [operatorId, hash],
        })),
      ]);
    },

    async takeRecoveryCode(operatorId, hash, now = new Date()) {
      const rows = await db.query(
        `UPDATE recovery_codes SET used_at = ? WHERE operator_id = ? AND code_hash = ? AND used_at IS NULL
         RETURNING code_hash`,
        [now.getTime(), operatorId, hash],
      );
      return rows.length > 0;
    },

    async recoveryCodesLeft(operatorId) {
      const [row] = await db.query(
        "SELECT COUNT(*) AS n FROM recovery_codes WHERE operator_id = ? AND used_at IS NULL",
        [operatorId],
      );
      return Number(row?.n ?? 0);
    },

    async addPasskey({ id, operatorId, name, publicKey, counter, transports, createdAt }) {
      await db.query(
        `INSERT INTO passkeys (id, operator_id, name, public_key, counter, transports, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [id, operatorId, name, publicKey, counter, transports.join(","), createdAt.getTime()],
      );
    },

    async listPasskeys(operatorId) {
      const rows = await db.query("SELECT * FROM passkeys WHERE operator_id = ? ORDER BY created_at, id", [operatorId]);
      return rows.map(passkeyFrom);
    },

    async findPasskey(id) {
      const [row] = await db.query("SELECT * FROM passkeys WHERE id = ?", [id]);
      return row ? passkeyFrom(row) : null;
    },

    async usePasskey(id, counter, now = new Date()) {
      await db.query("UPDATE passkeys SET counter = ?, last_used_at = ? WHERE id = ?", [counter, now.getTime(), id]);
    },

    async removePasskey(operatorId, id) {
      const rows = await db.query("DELETE FROM passkeys WHERE operator_id = ? AND id = ? RETURNING id", [
        operatorId,
        id,
      ]);
      return rows.length > 0;
    },

    async putChallenge(challenge, purpose, operatorId, expiresAt) {
      const at = Date.now();
      await transaction(db, [
        // Expired challenges are forgotten as new ones come.
        { sql: "DELETE FROM webauthn_challenges WHERE expires_at <= ?", params: [at] },
        {
          sql: "INSERT INTO webauthn_challenges (challenge, purpose, operator_id, expires_at) VALUES (?, ?, ?, ?)",
          params: [challenge, purpose, operatorId, expiresAt.getTime()],
        },
      ]);
    },

    async takeChallenge(challenge, purpose, now = new Date()) {
      const [row] = await db.query(
        "DELETE FROM webauthn_challenges WHERE challenge = ? RETURNING purpose, operator_id, expires_at",
        [challenge],
      );
      if (!row || row.purpose !== purpose || Number(row.expires_at) <= now.getTime()) return undefined;
      return { operatorId: row.operator_id === null || row.operator_id === undefined ? null : String(row.operator_id) };
    },

    async rememberBrowser(operatorId, browserHash, now = new Date()) {
      const rows = await db.query(
        `INSERT INTO known_browsers (operator_id, browser_hash, first_seen_at) VALUES (?, ?, ?)
         ON CONFLICT (operator_id, browser_hash) DO NOTHING RETURNING browser_hash`,
        [operatorId, browserHash, now.getTime()],
      );
      return rows.length > 0;
    },

    async resetFactors(email) {
      const [row] = await db.query("SELECT * FROM operators WHERE email_key = ?", [email.trim().toLowerCase()]);
      if (!row) return null;
      const operator = operatorFrom(row);
      const { sessions } = await transaction(db, [
        { sql: "DELETE FROM totp_factors WHERE operator_id = ?", params: [operator.id] },
        { sql: "DELETE FROM recovery_codes WHERE operator_id = ?", params: [operator.id] },
        { sql: "DELETE FROM passkeys WHERE operator_id = ?", params: [operator.id] },
        { sql: "DELETE FROM webauthn_challenges WHERE operator_id = ?", params: [operator.id] },
        {
          sql: "DELETE FROM sessions WHERE operator_id = ? RETURNING id_hash",
          params: [operator.id],
          name: "sessions",
        },
      ]);
      return { sessions: (sessions ?? []).length };
    },
  };
  return operations;
}
