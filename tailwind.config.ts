import type { Config } from "tailwindcss";
import { breakpoints } from "./app/wording";

const px = (n: number) => `${n}px`;

export default {
  content: ["./app/**/*.{ts,tsx}"],
  theme: {
    // The spec's breakpoints (xs 0 is the default, unprefixed).
    screens: {
      sm: px(breakpoints.sm),
      md: px(breakpoints.md),
      lg: px(breakpoints.lg),
      xl: px(breakpoints.xl),
      xxl: px(breakpoints.xxl),
    },
    extend: {
      colors: {
        night: { 950: "#07060a", 900: "#0b0a10", 800: "#14121c", 700: "#1e1a29", 600: "#2b2538" },
        bone: { 50: "#fbf7ee", 100: "#f3ead8", 300: "#d9ccb0", 400: "#bfb195" },
        ember: { 300: "#ffb667", 400: "#f6a04a", 500: "#f28c28", 600: "#d4700f" },
        ghoul: { 300: "#b5e58a", 400: "#8fd14f" },
      },
      fontFamily: {
        display: ['"Iowan Old Style"', '"Palatino Linotype"', "Palatino", "Georgia", "serif"],
      },
    },
  },
  plugins: [],
} satisfies Config;
