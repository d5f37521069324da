import { ConfigError, parseConfig, type Config } from "~/config.server";
import { log, logFormats, setLogFormat, type LogFormat } from "~/log.server";

let config: Config | undefined;

/**
 * The process's configuration: the first call reads process.env (app/config.server.ts checks every variable) and
 * exits the process when a value is invalid, naming the variable. The server hands it to the app as
 * `context.services.config`; `npm run inbox` reads it here too.
 */
export function getConfig(): Config {
  if (config) return config;
  try {
    config = parseConfig(process.env);
    if (config.logFormat) setLogFormat(config.logFormat);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // The refusal in the format asked for, when LOG_FORMAT itself is one (another variable was the wrong one).
    const format = process.env.LOG_FORMAT?.trim();
    if (logFormats.includes(format as LogFormat)) setLogFormat(format as LogFormat);
    log.error(error.message);
    process.exit(1);
  }
}
