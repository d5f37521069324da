import { describe, expect, it } from "vitest";
import { routeLabeller } from "./metrics";

const route = (id: string, path: string | undefined, index?: boolean) => ({
  id,
  parentId: id === "root" ? undefined : "root",
  path,
  index,
  caseSensitive: undefined,
});

// The shape of the site's route manifest (build/index.js `routes`), a few of its routes.
const routes = Object.fromEntries(
  [
    route("root", ""),
    route("routes/_index", undefined, true),
    route("routes/contact", "contact"),
    route("routes/inbox._index", "inbox", true),
    route("routes/inbox.$id", "inbox/:id"),
    route("routes/inbox.$id_.erase", "inbox/:id/erase"),
    route("routes/inbox.export[.]csv", "inbox/export.csv"),
    route("routes/$", "*"),
  ].map((r) => [r.id, r]),
);

describe("routeLabeller", () => {
  const label = routeLabeller({ routes, publicPath: "/build/" });

  it("names the Remix route that answers, never the path", () => {
    expect(label("/", 200)).toBe("routes/_index");
    expect(label("/contact", 303)).toBe("routes/contact");
    expect(label("/inbox", 200)).toBe("routes/inbox._index");
    expect(label("/inbox/4f1c9e", 200)).toBe("routes/inbox.$id");
    expect(label("/inbox/4f1c9e/erase", 200)).toBe("routes/inbox.$id_.erase");
    expect(label("/inbox/export.csv", 200)).toBe("routes/inbox.export[.]csv");
  });

  it("gives single fetch's data requests their route's label", () => {
    expect(label("/contact.data", 200)).toBe("routes/contact");
    expect(label("/_root.data", 200)).toBe("routes/_index");
  });

  it("puts the build, public/ files, photos and everything unknown in a few fixed labels", () => {
    expect(label("/build/_assets/tailwind-X.css", 200)).toBe("static");
    expect(label("/build/missing.js", 404)).toBe("static");
    expect(label("/favicon.svg", 200)).toBe("static");
    expect(label("/photos/about-1a2b.avif", 200)).toBe("photos");
    expect(label("/wp-login.php", 404)).toBe("not_found");
    expect(label("/%E0%A4%A", 400)).toBe("not_found");
  });
});
