#!/usr/bin/env bash
# Builds genswarms/test-agent:latest (the image the docker specs use): the agent image's rootfs under
# the test tag. Used by .ci/run after dockerd is up. Usage: tools/docker/build-test-image.sh [image-tag]
set -euo pipefail
exec /bin/bash "$(dirname "$0")/build-agent-image.sh" "${1:-genswarms/test-agent:latest}"
