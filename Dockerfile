# Parley's container image: built once (dependencies, native modules, the browser assets), run
# without dev dependencies as an unprivileged user. Data lives in /data (mount a volume); with
# DATABASE_URL and PARLEY_STORAGE=s3 the container keeps nothing of its own.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY web ./web
# Production dependencies only; `prepare` builds the widget and dashboard assets into web/*/dist.
RUN npm ci --omit=dev --no-audit --no-fund
COPY src ./src
COPY tsconfig.json ./

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:3000/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Node itself as PID 1's child of no shell, so SIGTERM reaches the server (it drains, then exits).
CMD ["node", "--import", "tsx", "src/server.ts"]
