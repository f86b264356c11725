# syntax=docker/dockerfile:1
# The service as a container: built in one stage, run from a slim one as `ticketing`, an
# unprivileged user of its own, with production dependencies only. Point it at PostgreSQL with
# DATABASE_URL (the embedded database is for one instance on one machine; see README, "Deployment"),
# and set METRICS_TOKEN (or METRICS_PUBLIC=true): HOST=0.0.0.0 is reachable from other machines,
# so the service refuses to start with /metrics open to them.
#
# Why a user of its own, not the image's `node` (uid 1000, the first user of countless images
# and hosts): the service listens with several SO_REUSEPORT sockets (ACCEPT_QUEUES), and any
# process of the same user in the same network namespace (a sidecar, a container run with the
# host's network) can bind the port the same way and silently receive a share of the
# connections. A uid nothing else runs as keeps that group the service's own.

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
RUN npx tsc -p tsconfig.json

FROM node:22-bookworm-slim AS run
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
# glibc malloc: large blocks mapped for themselves and given back when freed (docs/operations/production.md)
ENV MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY assets ./assets
RUN groupadd --system --gid 10001 ticketing \
  && useradd --system --uid 10001 --gid ticketing --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin ticketing \
  && mkdir -p /data && chown ticketing:ticketing /data
USER ticketing
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/server.js"]
