import { describe, expect, it } from "vitest";
import { listenProblem } from "./listen";

const failure = (code: string, message = code) => Object.assign(new Error(message), { code });

describe("listenProblem", () => {
  it("says plainly which setting to change, naming the port and address", () => {
    const variables: [string, string] = ["PORT", "HOST"];
    expect(listenProblem(failure("EADDRINUSE"), 3000, "127.0.0.1", variables)).toBe(
      "port 3000 on 127.0.0.1 is already in use: stop the other server or set PORT",
    );
    expect(listenProblem(failure("EADDRINUSE"), 3000, undefined, variables)).toBe(
      "port 3000 on every interface is already in use: stop the other server or set PORT",
    );
    expect(listenProblem(failure("EACCES"), 80, "0.0.0.0", variables)).toBe(
      "port 80 on 0.0.0.0 needs a privilege this process lacks: set PORT to 1024 or above",
    );
    expect(listenProblem(failure("EADDRNOTAVAIL"), 9464, "10.9.9.9", ["METRICS_PORT", "METRICS_HOST"])).toBe(
      "cannot listen on 10.9.9.9: it is not an address of this machine: set METRICS_HOST",
    );
    expect(listenProblem(failure("EMFILE", "too many open files"), 3000, "::", variables)).toBe(
      "cannot listen on port 3000 on ::: too many open files",
    );
  });
});
