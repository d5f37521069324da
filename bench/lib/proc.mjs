// Child processes for the benchmark: free loopback ports, spawning and stopping servers, and reading a process's
// CPU time and memory from /proc. Every server the benchmark measures runs in its own process, never in this one.
import { spawn, execFileSync } from "node:child_process";
import { openSync, closeSync, readFileSync } from "node:fs";

export const host = "127.0.0.1";

const clockTicks = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

export { freePort } from "../../tests/support/free-port.mjs";

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a URL until it answers (any status) or the deadline passes. */
export async function waitForUrl(url, { timeoutMs = 30_000, child } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null)
      throw new Error(`${url}: the server exited with code ${child.exitCode} before it answered`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      return;
    } catch (error) {
      lastError = error;
      await sleep(150);
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms (${lastError?.cause?.code ?? lastError?.message})`);
}

const children = new Set();

/**
 * Spawns a long-running child whose stdout and stderr go to a log file (a pipe that nobody reads would stall a busy
 * server). Returns the ChildProcess; `stopChild` ends it.
 */
export function spawnLogged(command, args, { cwd, env, logFile }) {
  const fd = openSync(logFile, "w");
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** SIGTERM, then SIGKILL if the child has not exited after graceMs. Resolves when it is gone. */
export function stopChild(child, { graceMs = 5000 } = {}) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Kills whatever this process started and is still running (used on errors, Ctrl-C and the global deadline). */
export function killAllChildren() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}

/** CPU time (user + system) a process has used so far, in milliseconds, from /proc/<pid>/stat. */
export function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may contain spaces; the fields after its closing parenthesis are fixed.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / clockTicks;
}

/** VmHWM (peak resident set) and VmRSS (current) of a process, in bytes, from /proc/<pid>/status. */
export function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
  return { hwm: kb("VmHWM"), rss: kb("VmRSS") };
}

/** The number of CPUs and the 1-minute load average, to show how busy the machine was. */
export function machineLoad() {
  try {
    const [one] = readFileSync("/proc/loadavg", "utf8").split(" ");
    return Number(one);
  } catch {
    return NaN;
  }
}
