# syntax=docker/dockerfile:1
# A team's internal copy of GPU Atlas as a container image: the site built
# with the team's overlay for its base URL, served under that URL's path by
# Debian's nginx, with the headers of the build's own _headers file (CSP,
# caching; converted by `generator nginx-conf`) and the precompressed
# .br/.gz siblings. See README.md, "Deploying".
#
# From the team's repository (README.md, "Self-hosting for your team"):
#
#   docker build -f gpu-atlas/Dockerfile \
#     --build-arg BASE_URL=https://intranet.example/gpu/ -t team-gpu-guide .
#   docker run --rm -p 8080:80 team-gpu-guide     # http://127.0.0.1:8080/gpu/
#
# From a clone of this repository alone (no overlay):
#
#   docker build -f Dockerfile --build-arg ATLAS=. --build-arg OVERLAY= \
#     --build-arg BASE_URL=https://intranet.example/gpu/ -t gpu-atlas .
#
# The nginx configuration is tested by TestNginx in
# generator/internal/nginxconf, which builds a site, writes its nginx.conf
# and runs Debian's nginx on it exactly as below, with a temporary directory
# for /srv/gpu-atlas.

# The Go toolchain building the site (go.mod's go version or later), and the
# Debian release whose nginx serves it.
ARG GO_IMAGE=golang:1.26
ARG DEBIAN=bookworm

FROM ${GO_IMAGE} AS build
# The URL the site is served from (required): every link, the sitemap and the
# hreflang alternates use it, and nginx serves the site under its path.
ARG BASE_URL
# This repository's directory in the build context, and the team's overlay
# directory (empty: none), both relative to the context.
ARG ATLAS=gpu-atlas
ARG OVERLAY=overlay
# The build date as a Unix time (price ages are computed against it); empty:
# the day the image is built.
ARG SOURCE_DATE_EPOCH
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.cache --mount=type=cache,target=/go/pkg/mod \
    set -eu; \
    if [ -z "$BASE_URL" ]; then echo 'set --build-arg BASE_URL=https://host/path/ (the URL the site is served from)' >&2; exit 1; fi; \
    cd "/src/$ATLAS"; \
    mkdir -p /srv/gpu-atlas; \
    go run ./generator build ${OVERLAY:+-overlay "/src/$OVERLAY"} -base-url "$BASE_URL" -out /srv/gpu-atlas/site; \
    chmod -R a+rX /srv/gpu-atlas/site; \
    go run ./generator nginx-conf -prefix /srv/gpu-atlas -base-url "$BASE_URL" -listen 80

FROM debian:${DEBIAN}-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends nginx libnginx-mod-http-brotli-static \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /srv/gpu-atlas /srv/gpu-atlas
EXPOSE 80
# Graceful shutdown: nginx finishes the requests in flight.
STOPSIGNAL SIGQUIT
CMD ["nginx", "-p", "/srv/gpu-atlas/", "-c", "/srv/gpu-atlas/nginx.conf", "-e", "stderr"]
