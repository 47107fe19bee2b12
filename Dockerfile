# rfq-sync worker image. Node 24 runs the TypeScript sources directly (type stripping): no build step.
FROM node:24-bookworm-slim

# NODE_COMPILE_CACHE set from the start: bin/rfq-sync.ts is then cached too, and a restart loads no type stripper
# (about 15 MB less RSS; app/compile-cache.ts). NODE_OPTIONS caps V8's young generation at 8 MB per half: V8 sizes
# it from the machine's memory (64 MB at 24 GiB) and a worker at rest keeps it committed (docs/operations.md#memory).
ENV NODE_ENV=production \
    NODE_COMPILE_CACHE=/tmp/node-compile-cache \
    NODE_OPTIONS=--max-semi-space-size=8 \
    RFQ_SYNC_DIR=/data \
    HTTP_HOST=0.0.0.0 \
    HTTP_PORT=9464
WORKDIR /app

COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

COPY bin ./bin
COPY src ./src
COPY app ./app
COPY jobs ./jobs
COPY mappings ./mappings
COPY samples ./samples

# The data root holds inbox/ processing/ archive/ failed/ outbox/; inbox and processing must share one
# filesystem (a taken file is renamed atomically from one to the other).
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 9464

# /healthz answers without a token from anywhere; the process is up when it answers.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.HTTP_PORT||9464)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# SIGTERM reaches node directly (exec form), so graceful shutdown runs; keep stop_grace_period above
# SHUTDOWN_TIMEOUT_MS.
ENTRYPOINT ["node", "bin/rfq-sync.ts"]
CMD ["worker"]
