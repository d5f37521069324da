import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    include: ["app/**/*.test.ts", "server/**/*.test.ts", "tests/integration/**/*.test.ts", "tests/deploy/**/*.test.ts"],
    environment: "node",
    testTimeout: 15_000,
    hookTimeout: 120_000,
    reporters: ["default", ["json", { outputFile: "test-results/unit.json" }]],
  },
});
