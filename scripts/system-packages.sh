#!/usr/bin/env bash
# Debian packages the test suite needs: Chromium (and an emoji font, for true screenshots) for the
# browser test, PostgreSQL for the database tests, Redis for the shared rate limits, nginx for the
# front door (deploy/nginx.conf) and the load benchmark. Quick when they
# are already there.
set -euo pipefail

packages=(chromium fonts-noto-color-emoji nginx postgresql redis-server wrk)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "scripts/system-packages.sh: missing Debian packages ${missing[*]}: install them as root" >&2
    exit 2
fi
echo "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
