import { execFile } from "node:child_process";
import { join } from "node:path";
import { projectRoot } from "./site-server";

/** One finding of the W3C Nu HTML checker (vnu.jar), as its JSON output gives it. */
export interface CheckerMessage {
  type: string;
  url: string;
  message: string;
}

const jar = join(projectRoot, "node_modules/vnu-jar/build/dist/vnu.jar");

/**
 * Runs the checker on HTML files and returns its findings (errors only). The JSON is read from stdout (`--stdout`):
 * on stderr it would be mixed with whatever the JVM prints there (e.g. "Picked up JAVA_TOOL_OPTIONS"). A checker
 * that did not run says why (no `java` on PATH, killed, timed out, output that is not its JSON), never
 * "Unexpected end of JSON input".
 */
export function checkHtml(files: string[], { timeoutMs = 50_000 } = {}): Promise<CheckerMessage[]> {
  const args = ["-jar", jar, "--format", "json", "--errors-only", "--stdout", ...files];
  return new Promise((resolve, reject) => {
    execFile("java", args, { maxBuffer: 16 * 1024 * 1024, timeout: timeoutMs }, (error, stdout, stderr) => {
      const failure = error as (NodeJS.ErrnoException & { killed?: boolean; signal?: string }) | null;
      if (failure?.code === "ENOENT") {
        reject(new Error("the HTML checker needs Java: no `java` on PATH (apt-get install default-jre-headless)"));
        return;
      }
      if (failure?.killed || failure?.signal) {
        reject(new Error(`the HTML checker was stopped (${failure.signal ?? "timeout"} after up to ${timeoutMs} ms)`));
        return;
      }
      // Exit status 1 only means it found errors: the JSON says which.
      try {
        resolve((JSON.parse(stdout) as { messages: CheckerMessage[] }).messages);
      } catch {
        reject(
          new Error(
            `the HTML checker printed no JSON (exit ${String(failure?.code ?? 0)}):\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`,
          ),
        );
      }
    });
  });
}
