# syntax=docker/dockerfile:1
# Agent Docs: one build, two images (content/docs/deploy/container.md).
#
#   docker build -t agent-docs --build-arg SITE_URL=https://docs.example.com .
#       the gateway (default target): the build output, the API, the MCP server,
#       the static tree too, so one container is a complete site
#   docker build --target static -t agent-docs-static .
#       nginx with the static tree and the server block the build generated
#
# compose.yaml builds both from the same build stage. The build is done here, in
# the image, so an image is a complete, reproducible release of one content
# version; the settings the build bakes into the output are build arguments.

ARG NODE_IMAGE=node:24-slim
ARG NGINX_IMAGE=nginx:1.28-alpine

# ── build: content/ → dist/ ──────────────────────────────────────────────────
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV ASTRO_TELEMETRY_DISABLED=1
# Dependencies first: this layer is reused until package-lock.json changes. The
# build needs only runtime dependencies (Astro, MDX, Pagefind, zod).
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
# Written into llms.txt, the sitemap, canonical links and the discovery files.
ARG SITE_URL=http://localhost:8080
ARG ASSISTANT_SITE_URL=http://localhost:4322
ARG SITE_EDIT_URL=
ARG CONTENT_DIR=content
ENV SITE_URL=$SITE_URL ASSISTANT_SITE_URL=$ASSISTANT_SITE_URL SITE_EDIT_URL=$SITE_EDIT_URL CONTENT_DIR=$CONTENT_DIR
RUN npm run build

# ── static: nginx serving dist/site, proxying the API to the gateways ────────
FROM ${NGINX_IMAGE} AS static
# The server block expects dist/ at /srv/agent-docs (src/integration/nginx-site.ts).
COPY --from=build /app/dist/site /srv/agent-docs/site
COPY --from=build /app/dist/nginx /srv/agent-docs/nginx
COPY --from=build /app/dist/nginx/agent-docs.conf /etc/nginx/conf.d/default.conf
EXPOSE 80

# ── gateway (default): the run-time server on the build output ───────────────
FROM ${NODE_IMAGE} AS gateway
WORKDIR /app
ARG SITE_URL=http://localhost:8080
ARG ASSISTANT_SITE_URL=http://localhost:4322
# The same URLs the build baked in; the gateway checks the assistant's Origin against ASSISTANT_SITE_URL.
ENV NODE_ENV=production \
    SITE_URL=$SITE_URL \
    ASSISTANT_SITE_URL=$ASSISTANT_SITE_URL \
    HOST=0.0.0.0 \
    PORT=4321 \
    ASSISTANT_PORT=4322 \
    GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=262144 \
    NODE_COMPILE_CACHE=/app/dist/compile-cache
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/gateway ./gateway
COPY --from=build /app/dist ./dist
EXPOSE 4321 4322
# Unprivileged: the gateway reads the build and writes only its index cache under /tmp.
USER node
# The slim image has no curl; Node's fetch does the check.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:4321/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# --max-semi-space-size is read when V8 starts, so it is on the command line (see the performance docs).
CMD ["node", "--max-semi-space-size=16", "gateway/server.ts"]
