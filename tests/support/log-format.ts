import { setLogFormat } from "../../app/log.server";

/**
 * The app's log lines in the human format in the tests' own process (vitest's stdout is a pipe, which would make JSON
 * the default): tests that run the outbox or an action in process read those lines from the console.
 */
setLogFormat("text");
