# Multi-stage: install everything and build, then ship only the build output and production dependencies.
FROM node:24-bookworm-slim AS base
WORKDIR /app

# All dependencies, for the build.
FROM base AS deps
COPY package.json package-lock.json ./
RUN npm ci --include=dev --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build

# Production dependencies only.
FROM base AS prod-deps
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM base AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATABASE_URL=file:/app/data/enquiries.db \
    INBOX_FILE=/app/data/enquiries.jsonl \
    BACKUP_DIR=/app/backups \
    NPM_CONFIG_UPDATE_NOTIFIER=false
# glibc gives freed memory back after each photo's encoding, as npm start does (docs/photos.md, "Memory").
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072
# ffmpeg and ffprobe for the portfolio's video clips (docs/decisions/0040-ffmpeg-for-video.md).
RUN apt-get update && apt-get install -y --no-install-recommends ffmpeg && rm -rf /var/lib/apt/lists/*
COPY --chown=node:node package.json package-lock.json ./
COPY --from=prod-deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --from=build --chown=node:node /app/public ./public
COPY --chown=node:node scripts ./scripts
# The embedded inbox's SQLite database (used when API_HOST is not set; a v1 enquiries.jsonl here is imported at start):
# mount a volume here to keep it. Its backups (docs/operating.md#backups) go to a volume of their own, so a disk that
# dies under the data can leave them: mount that one elsewhere.
RUN mkdir -p /app/data /app/backups && chown node:node /app/data /app/backups && chmod 700 /app/backups
VOLUME ["/app/data", "/app/backups"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is the main process, so it gets docker stop's SIGTERM and finishes what is in flight (npm would not).
# The heap sized for a small container (measured in bench/README.md, "Memory"): without it V8 sizes the heap for the
# host's memory and lets garbage pile up to several times the live heap before collecting it. Same flags as npm start.
CMD ["node", "--max-old-space-size=160", "--max-semi-space-size=4", "build/server/index.js"]
