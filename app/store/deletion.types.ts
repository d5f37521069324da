/**
 * What retention and an erase delete (app/store/deletion.server.ts).
 */

/** What a purge deleted. */
export interface PurgeResult {
  enquiries: number;
  spam: number;
  notifications: number;
  activity: number;
  formTokens: number;
}

/** What retention and an erase delete (app/store/deletion.server.ts). */
export interface DeletionStore {
  /**
   * Deletes enquiries received before the cut-offs, with their notifications and activity, and every activity entry
   * older than the enquiries' cut-off; one purge at a time. The deleted enquiries' numbers stay in `figures_kept`.
   */
  purge(cutoffs: { enquiriesBefore: Date; spamBefore: Date }, now?: Date): Promise<PurgeResult>;
  /**
   * Deletes every enquiry from this address (any case) with its notifications and activity (their numbers kept in
   * `figures_kept` for the season's figures, under new ids), and remembers the address as a keyed hash so no import
   * brings them back; then leaves no copy in the database's files (SqlClient scrub). Resolves with how many enquiries.
   */
  erase(email: string, now?: Date): Promise<number>;
}
